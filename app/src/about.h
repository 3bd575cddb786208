// The About dialog's text: the version and commit of this build, how it was
// built (type, compiler, Qt, the recorder), and the libraries it uses with
// their licences.
#pragma once

#include <QString>

namespace gapscope::app {

QString aboutText();

}  // namespace gapscope::app
