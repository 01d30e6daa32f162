/* stb_image and stb_image_write compiled into the fuzz build, so they are instrumented too. */
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image.h>
#include <stb_image_write.h>
