// The GL entry points, through the glad loader generated at build time.
#pragma once

#include <glad/gl.h>
