# Writes gapscope-cli(1) from gapscope-cli.1.in and the program's own help:
# `gapscope-cli --help` names the commands, options and exit status, and
# `gapscope-cli COMMAND --help` describes each command. Run as
#   cmake -DCLI=path/to/gapscope-cli -DTEMPLATE=gapscope-cli.1.in
#         -DOUTPUT=gapscope-cli.1 -DVERSION=x.y.z -P GenerateManPage.cmake
# The help text is the contract (cli/main.cpp printHelp): a first line
# "gapscope-cli VERSION - TAGLINE", then sections "Commands:" (a usage line
# indented by two spaces, its summary by six), "Options:" ("  --flag   text")
# and "Exit status: ...".
cmake_minimum_required(VERSION 3.25)

foreach(var CLI TEMPLATE OUTPUT VERSION)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "GenerateManPage.cmake: -D${var}=... is required")
  endif()
endforeach()

# CMake lists split on ';' and ignore ';' inside [...]; usage lines are full
# of brackets, so both are swapped for control characters while the text is
# handled as a list of lines, and swapped back when it is written out.
string(ASCII 28 SEMICOLON_STAND_IN)
string(ASCII 29 OPEN_BRACKET_STAND_IN)
string(ASCII 30 CLOSE_BRACKET_STAND_IN)

function(text_to_lines text out_var)
  string(REPLACE ";" "${SEMICOLON_STAND_IN}" text "${text}")
  string(REPLACE "[" "${OPEN_BRACKET_STAND_IN}" text "${text}")
  string(REPLACE "]" "${CLOSE_BRACKET_STAND_IN}" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  set(${out_var} "${lines}" PARENT_SCOPE)
endfunction()

# One line of help text as troff: literal backslashes, real minus signs for
# options, and no line that troff would read as a request.
function(troff_escape line out_var)
  string(REPLACE "${SEMICOLON_STAND_IN}" ";" line "${line}")
  string(REPLACE "${OPEN_BRACKET_STAND_IN}" "[" line "${line}")
  string(REPLACE "${CLOSE_BRACKET_STAND_IN}" "]" line "${line}")
  string(REPLACE "\\" "\\e" line "${line}")
  string(REPLACE "-" "\\-" line "${line}")
  if(line MATCHES "^[.']")
    set(line "\\&${line}")
  endif()
  set(${out_var} "${line}" PARENT_SCOPE)
endfunction()

function(run_cli out_var)
  execute_process(COMMAND "${CLI}" ${ARGN}
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    list(JOIN ARGN " " args)
    message(FATAL_ERROR "'${CLI} ${args}' failed (${rc}): ${err}")
  endif()
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()

# The lines of one section of the top-level help, from its "Title:" line
# (text after the colon included) to the next blank line.
function(help_section lines title out_var)
  set(section "")
  set(inside FALSE)
  foreach(line IN LISTS lines)
    if(inside)
      if(line STREQUAL "")
        break()
      endif()
      list(APPEND section "${line}")
    elseif(line MATCHES "^${title}:(.*)$")
      set(inside TRUE)
      string(STRIP "${CMAKE_MATCH_1}" rest)
      if(NOT rest STREQUAL "")
        list(APPEND section "${rest}")
      endif()
    endif()
  endforeach()
  if(NOT inside)
    message(FATAL_ERROR "'${CLI} --help' has no '${title}:' section")
  endif()
  set(${out_var} "${section}" PARENT_SCOPE)
endfunction()

# A command's own help: "Usage: gapscope-cli USAGE", then its description.
# Unindented lines flow as a paragraph; indented ones (option tables) keep
# their layout.
function(command_entry name out_var)
  run_cli(help ${name} --help)
  text_to_lines("${help}" lines)
  list(POP_FRONT lines usage_line)
  if(NOT usage_line MATCHES "^Usage: gapscope-cli (.+)$")
    message(FATAL_ERROR "'${CLI} ${name} --help' does not start with 'Usage: gapscope-cli'")
  endif()
  troff_escape("${CMAKE_MATCH_1}" usage)
  set(entry ".TP\n.B ${usage}\n")
  set(verbatim FALSE)
  foreach(line IN LISTS lines)
    troff_escape("${line}" text)
    if(line MATCHES "^[ \t]")
      if(NOT verbatim)
        string(APPEND entry ".nf\n")
        set(verbatim TRUE)
      endif()
    elseif(verbatim)
      string(APPEND entry ".fi\n")
      set(verbatim FALSE)
    endif()
    if(line STREQUAL "")
      string(APPEND entry ".IP\n")
    else()
      string(APPEND entry "${text}\n")
    endif()
  endforeach()
  if(verbatim)
    string(APPEND entry ".fi\n")
  endif()
  string(REGEX REPLACE "(\\.IP\n)+$" "" entry "${entry}")
  set(${out_var} "${entry}" PARENT_SCOPE)
endfunction()

run_cli(top_help --help)
text_to_lines("${top_help}" top_lines)

list(GET top_lines 0 first_line)
if(NOT first_line MATCHES "^gapscope-cli [^ ]+ - (.+)$")
  message(FATAL_ERROR "'${CLI} --help' does not start with 'gapscope-cli VERSION - TAGLINE'")
endif()
troff_escape("${CMAKE_MATCH_1}" GAPSCOPE_CLI_TAGLINE)

help_section("${top_lines}" "Commands" command_lines)
set(GAPSCOPE_CLI_COMMANDS "")
foreach(line IN LISTS command_lines)
  # Usage lines are indented by two spaces, summaries by more.
  if(line MATCHES "^  ([^ ]+)")
    command_entry(${CMAKE_MATCH_1} entry)
    string(APPEND GAPSCOPE_CLI_COMMANDS "${entry}")
  endif()
endforeach()
if(GAPSCOPE_CLI_COMMANDS STREQUAL "")
  set(GAPSCOPE_CLI_COMMANDS "This build of gapscope\\-cli has no commands.")
endif()

help_section("${top_lines}" "Options" option_lines)
set(GAPSCOPE_CLI_OPTIONS "")
foreach(line IN LISTS option_lines)
  if(NOT line MATCHES "^ +([^ ]+)  +(.+)$")
    message(FATAL_ERROR "cannot read the option line '${line}' of '${CLI} --help'")
  endif()
  troff_escape("${CMAKE_MATCH_1}" flag)
  troff_escape("${CMAKE_MATCH_2}" text)
  string(APPEND GAPSCOPE_CLI_OPTIONS ".TP\n.B ${flag}\n${text}\n")
endforeach()

help_section("${top_lines}" "Exit status" exit_lines)
set(GAPSCOPE_CLI_EXIT_STATUS "")
foreach(line IN LISTS exit_lines)
  string(STRIP "${line}" line)
  troff_escape("${line}" text)
  string(APPEND GAPSCOPE_CLI_EXIT_STATUS "${text}\n")
endforeach()

string(REPLACE "-" "\\-" GAPSCOPE_VERSION "${VERSION}")
# Drop the trailing newline of each generated block: the template ends the line.
foreach(block GAPSCOPE_CLI_COMMANDS GAPSCOPE_CLI_OPTIONS GAPSCOPE_CLI_EXIT_STATUS)
  string(REGEX REPLACE "\n$" "" ${block} "${${block}}")
endforeach()
configure_file("${TEMPLATE}" "${OUTPUT}" @ONLY)
