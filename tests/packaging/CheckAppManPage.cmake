# Checks the hand-written gapscope(1) against the program: every option that
# `gapscope --help` lists is described, and the page carries the version
# that `gapscope --version` prints.
#   cmake -DAPP=<gapscope> -DMAN_PAGE=<build>/packaging/gapscope.1 -P CheckAppManPage.cmake
# (run with QT_QPA_PLATFORM=offscreen: the app builds its QApplication first)
cmake_minimum_required(VERSION 3.25)

execute_process(COMMAND "${APP}" --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "'${APP} --help' failed (${rc})")
endif()
string(REGEX MATCH "\nOptions:\n(.*)" _ "${help}")
string(REGEX REPLACE "\n\n.*" "" options_block "${CMAKE_MATCH_1}")
# An option line is "  -h, --help   Displays ...": names, two spaces, text.
string(REGEX MATCHALL "(^|\n) +-[^\n]*" option_lines "${options_block}")
set(options "")
foreach(line IN LISTS option_lines)
  string(REGEX REPLACE "^\n? +" "" line "${line}")
  string(REGEX REPLACE "  .*$" "" names "${line}")
  # "-?" is Windows' alias of --help and needs no entry of its own.
  string(REGEX MATCHALL "--?[A-Za-z][A-Za-z-]*" names "${names}")
  list(APPEND options ${names})
endforeach()
if(NOT options)
  message(FATAL_ERROR "found no options in '${APP} --help':\n${help}")
endif()

file(READ "${MAN_PAGE}" page)
string(REPLACE "\\-" "-" page_text "${page}")
set(failures "")
foreach(option IN LISTS options)
  if(NOT page_text MATCHES "\n\\.B[RI]? ([^\n]* )?\"?${option}[\" \n,]")
    list(APPEND failures "option ${option} of --help is not described in the page")
  endif()
endforeach()

execute_process(COMMAND "${APP}" --version OUTPUT_VARIABLE version_line)
string(REGEX MATCH "[0-9][^ \n]*" version "${version_line}")
if(NOT page_text MATCHES "\n\\.TH [^\n]*\"gapscope ${version}\"")
  list(APPEND failures "the .TH line does not carry the program's version ${version}")
endif()

if(failures)
  list(JOIN failures "\n  " text)
  message(FATAL_ERROR "gapscope(1) and gapscope --help disagree:\n  ${text}")
endif()
message(STATUS "gapscope(1) describes every option of gapscope --help: ${options}")
