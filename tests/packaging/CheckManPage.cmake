# Checks the built gapscope-cli(1) against the program: every command of
# `gapscope-cli --help` is described, no other command is, the page carries
# the program's version, and groff renders it without a warning.
#   cmake -DCLI=<gapscope-cli> -DMAN_PAGE=<build>/packaging/gapscope-cli.1 -P CheckManPage.cmake
cmake_minimum_required(VERSION 3.25)

if(NOT EXISTS "${MAN_PAGE}")
  message(FATAL_ERROR "${MAN_PAGE} was not built (target gapscope-man-pages)")
endif()

execute_process(COMMAND "${CLI}" --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "'${CLI} --help' failed (${rc})")
endif()
# In the help, a command's usage line is indented by exactly two spaces.
string(REGEX MATCH "\nCommands:\n(.*)" _ "${help}")
string(REGEX REPLACE "\n\n.*" "" commands_block "${CMAKE_MATCH_1}")
string(REGEX MATCHALL "(^|\n)  [^ \n]+" help_commands "${commands_block}")
list(TRANSFORM help_commands REPLACE "^\n?  " "")
list(SORT help_commands)

file(READ "${MAN_PAGE}" page)
# In the page, each command is a .TP entry in COMMANDS whose tag, set in
# bold, starts with the command's name.
string(REGEX MATCH "\n\\.SH COMMANDS\n(.*)" _ "${page}")
string(REGEX REPLACE "\n\\.SH .*" "" commands_section "${CMAKE_MATCH_1}")
string(REGEX MATCHALL "\\.TP\n\\.B [^ \n]+" man_commands "${commands_section}")
list(TRANSFORM man_commands REPLACE "^\\.TP\n\\.B " "")
list(TRANSFORM man_commands REPLACE "\\\\-" "-")
list(SORT man_commands)

set(failures "")
foreach(c IN LISTS help_commands)
  if(NOT c IN_LIST man_commands)
    list(APPEND failures "command '${c}' is in --help but not in the man page")
  endif()
endforeach()
foreach(c IN LISTS man_commands)
  if(NOT c IN_LIST help_commands)
    list(APPEND failures "command '${c}' is in the man page but not in --help")
  endif()
endforeach()

execute_process(COMMAND "${CLI}" --version OUTPUT_VARIABLE version_line)
string(REGEX MATCH "[0-9][^ \n]*" version "${version_line}")
string(REPLACE "-" "\\\\-" version_in_troff "${version}")
if(NOT page MATCHES "\n\\.TH [^\n]*\"gapscope ${version_in_troff}\"")
  list(APPEND failures "the .TH line does not carry the program's version ${version}")
endif()

find_program(GROFF groff)
if(GROFF)
  execute_process(COMMAND ${GROFF} -man -Tutf8 -ww -z "${MAN_PAGE}"
                  ERROR_VARIABLE groff_warnings RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT groff_warnings STREQUAL "")
    list(APPEND failures "groff complains about the page (${rc}): ${groff_warnings}")
  endif()
else()
  message(STATUS "groff not installed: the page's troff was not checked")
endif()

if(failures)
  list(JOIN failures "\n  " text)
  message(FATAL_ERROR "gapscope-cli(1) and gapscope-cli --help disagree:\n  ${text}")
endif()
list(LENGTH help_commands n)
message(STATUS "the man page describes all ${n} commands of gapscope-cli --help: ${help_commands}")
