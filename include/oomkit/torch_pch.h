// Precompiled header for the LibTorch translation units (see CMakeLists.txt). Nothing in
// include/oomkit/ outside train/ and profile/ may include torch.
#pragma once
#include <torch/torch.h>
