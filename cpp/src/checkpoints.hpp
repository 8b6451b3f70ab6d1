// Whether this build of the core runs imported checkpoints (bert.hpp: learned positions, GELU's
// erf form, the masked-LM head's transform, weights kept only as panels, a WordPiece splitter
// of its own). The page's first wasm is built without (ATTENTION_CHECKPOINTS=0 in
// CMakeLists.txt): its model file cannot hold such a model, and `if constexpr` leaves their code
// out of it, so the page's first load does not grow. Internal to the core's .cpp files: no
// header the bindings include may read it.
#pragma once

#ifndef ATTENTION_CHECKPOINTS
#define ATTENTION_CHECKPOINTS 1
#endif

namespace attention {

inline constexpr bool kCheckpoints = ATTENTION_CHECKPOINTS != 0;

}  // namespace attention
