//go:build cgo && !purego

// The C side of package turbo: libjpeg-turbo's libjpeg API, found at run
// time with dlopen, driven with a setjmp/longjmp error handler.

#ifndef OBSKIT_TURBO_H
#define OBSKIT_TURBO_H

#include <stddef.h>

enum {
	OJT_OK = 0,
	OJT_ERR_FORMAT = 1,      // corrupt or malformed data
	OJT_ERR_TRUNCATED = 2,   // the data ended before the image did
	OJT_ERR_UNSUPPORTED = 3, // a JPEG process libjpeg-turbo does not decode
	OJT_ERR_UNAVAILABLE = 4, // the library could not be loaded
	OJT_ERR_SIZE = 5         // the image is not the size the caller computed
};

// A request of ojt_decode. It holds no pointer, so that Go may pass its own.
typedef struct {
	int num;            // in: the scale num/8, num 1 to 8
	int width, height;  // in: the size of the image scaled by num/8
	int x0, y0, x1, y1; // in: the crop, in the scaled image
	int stride;         // in: the bytes between two rows of out
	int warnings;       // out: warnings libjpeg-turbo went past (corrupt data)
	char msg[200];      // out: what went wrong
} ojt_req;

// ojt_load loads the library once; it returns 0 with the name of the shared
// object loaded in msg (n bytes), or -1 with the reason there.
int ojt_load(char *msg, int n);

// ojt_decode decodes the crop of r, scaled by r->num/8, into out: r->y1 -
// r->y0 rows of r->x1 - r->x0 RGB pixels, r->stride bytes apart. It returns
// OJT_OK or an error code with r->msg set.
int ojt_decode(ojt_req *r, const unsigned char *data, unsigned long size, unsigned char *out);

#endif
