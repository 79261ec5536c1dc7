// Words a person reads, marked in plain C++: core/policy has no Qt, yet its phrases belong in
// Tether's Qt Linguist catalogue (context "Tether"), whole, so that a translator sees sentences,
// not fragments. lupdate reads these two as QT_TRANSLATE_NOOP and QT_TRANSLATE_N_NOOP (the
// -tr-function-alias in translations/CMakeLists.txt); each is the English text itself here, and
// the UI looks the text up when it shows it (core/service/words.h).
#pragma once

#define TETHER_WORDS(context, text) text
#define TETHER_WORDS_N(context, text) text
