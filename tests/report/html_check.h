// A strict well-formedness check for the HTML reports: every element closed
// in order (void elements written as <x/>), attributes quoted, every '&'
// starting one of the character references the writer uses, no stray '<',
// one root element. The report writes XHTML-style markup on purpose so a
// check this simple can be strict.
#pragma once

#include <string>
#include <string_view>

namespace gapscope::testing {

// "" when well-formed, else what is wrong and the byte offset.
std::string checkWellFormedHtml(std::string_view html);

}  // namespace gapscope::testing
