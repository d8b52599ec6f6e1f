/* img_util.h - the helpers an image library keeps in its own header */
#ifndef IMG_UTIL_H
#define IMG_UTIL_H
#include <stdlib.h>
static inline unsigned char clamp_u8(int v)
{
    return (unsigned char)(v < 0 ? 0 : (v > 255 ? 255 : v));
}
static inline int iabs(int v)
{
    return v < 0 ? -v : v;
}
#endif
