/* SPDX-License-Identifier: GPL-2.0-only */
/* A 5x7 bitmap font for printable ASCII (0x20..0x7e), drawn for ringlab
 * (tools/font5x7.txt).  Row r of glyph c: bit 4 is the leftmost column. */
#ifndef RINGLAB_LIB_FONT5X7_H
#define RINGLAB_LIB_FONT5X7_H

#include <stdint.h>

#define FONT5X7_FIRST	0x20
#define FONT5X7_NGLYPHS	95
#define FONT5X7_COLS	5
#define FONT5X7_ROWS	7

extern const uint8_t font5x7[FONT5X7_NGLYPHS][FONT5X7_ROWS];

#endif
