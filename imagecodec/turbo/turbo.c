//go:build cgo && !purego

#include "turbo.h"

#include <stdio.h>
#include <string.h>

#if defined(__has_include)
#if __has_include(<jpeglib.h>)
#define OJT_HAVE_JPEGLIB 1
#endif
#endif

#ifndef OJT_HAVE_JPEGLIB

// Built without libjpeg-turbo's headers: the package gives the pure-Go
// decoder.
int ojt_load(char *msg, int n) {
	snprintf(msg, n, "built without libjpeg-turbo's header jpeglib.h (Debian: apt-get install libjpeg62-turbo-dev, then rebuild)");
	return -1;
}

int ojt_decode(ojt_req *r, const unsigned char *data, unsigned long size, unsigned char *out) {
	snprintf(r->msg, sizeof r->msg, "libjpeg-turbo unavailable");
	return OJT_ERR_UNAVAILABLE;
}

#else

#include <dlfcn.h>
#include <setjmp.h>
#include <stdlib.h>
// jpeglib.h needs FILE and size_t declared first.
#include <jpeglib.h>
#include <jerror.h>

// The functions of the libjpeg API the decoder calls, from the library
// dlopen found. The program never links libjpeg: a binary built on a machine
// with the headers runs on one without the library, with the pure-Go decoder.
static struct {
	struct jpeg_error_mgr *(*std_error)(struct jpeg_error_mgr *);
	void (*create)(j_decompress_ptr, int, size_t);
	void (*destroy)(j_decompress_ptr);
	void (*mem_src)(j_decompress_ptr, const unsigned char *, unsigned long);
	int (*read_header)(j_decompress_ptr, boolean);
	boolean (*start)(j_decompress_ptr);
	void (*crop)(j_decompress_ptr, JDIMENSION *, JDIMENSION *);
	JDIMENSION (*skip)(j_decompress_ptr, JDIMENSION);
	JDIMENSION (*read)(j_decompress_ptr, JSAMPARRAY, JDIMENSION);
} lib;

// The shared object of the API version of the headers the package was built
// with: the decompressor's struct differs between versions 62, 70 and 80.
static const char *sonames[] = {
#if JPEG_LIB_VERSION >= 80
	"libjpeg.so.8", "libjpeg.8.dylib",
#elif JPEG_LIB_VERSION >= 70
	"libjpeg.so.7", "libjpeg.7.dylib",
#else
	"libjpeg.so.62", "libjpeg.62.dylib",
#endif
	NULL,
};

int ojt_load(char *msg, int n) {
	void *h = NULL;
	const char *name = NULL;
	for (int i = 0; sonames[i] && !h; i++) {
		name = sonames[i];
		h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	}
	if (!h) {
		snprintf(msg, n, "cannot load %s, libjpeg-turbo's library (Debian: apt-get install libjpeg62-turbo): %s", sonames[0], dlerror());
		return -1;
	}
#define SYM(field, symbol)                                                                   \
	if (!(*(void **)&lib.field = dlsym(h, symbol))) {                                        \
		snprintf(msg, n, "%s has no %s: it is not libjpeg-turbo 1.5 or later", name, symbol); \
		return -1;                                                                           \
	}
	SYM(std_error, "jpeg_std_error")
	SYM(create, "jpeg_CreateDecompress")
	SYM(destroy, "jpeg_destroy_decompress")
	SYM(mem_src, "jpeg_mem_src")
	SYM(read_header, "jpeg_read_header")
	SYM(start, "jpeg_start_decompress")
	SYM(crop, "jpeg_crop_scanline")
	SYM(skip, "jpeg_skip_scanlines")
	SYM(read, "jpeg_read_scanlines")
#undef SYM
	snprintf(msg, n, "%s", name);
	return 0;
}

// An error manager that jumps back to ojt_decode instead of exiting.
struct ojt_err {
	struct jpeg_error_mgr pub;
	jmp_buf jump;
	int code;
	char msg[JMSG_LENGTH_MAX];
};

static void on_error(j_common_ptr c) {
	struct ojt_err *e = (struct ojt_err *)c->err;
	switch (c->err->msg_code) {
	case JERR_SOF_UNSUPPORTED:
	case JERR_NOT_COMPILED:
	case JERR_NOTIMPL:
	case JERR_CONVERSION_NOTIMPL:
	case JERR_FRACT_SAMPLE_NOTIMPL:
	case JERR_CCIR601_NOTIMPL:
		e->code = OJT_ERR_UNSUPPORTED;
		break;
	default:
		e->code = OJT_ERR_FORMAT;
	}
	(*c->err->format_message)(c, e->msg);
	longjmp(e->jump, 1);
}

// Warnings (level -1) are counted and passed over, as Pillow does, except
// the end of the data before the end of the image: libjpeg-turbo would fill
// the rest with gray, Pillow says the file is truncated.
static void on_message(j_common_ptr c, int level) {
	if (level >= 0)
		return; // trace messages
	c->err->num_warnings++;
	if (c->err->msg_code == JWRN_JPEG_EOF) {
		struct ojt_err *e = (struct ojt_err *)c->err;
		e->code = OJT_ERR_TRUNCATED;
		(*c->err->format_message)(c, e->msg);
		longjmp(e->jump, 1);
	}
}

// cmyk writes n pixels of CMYK as Pillow converts them: it reads a JPEG's
// CMYK inverted ("CMYK;I", Adobe's convention), then nk = 255 - k and each
// channel nk - nk * c / 255, rounded as its MULDIV255.
static void cmyk(unsigned char *out, const unsigned char *in, int n) {
	for (int i = 0; i < n; i++, in += 4, out += 3) {
		int nk = in[3];
		for (int k = 0; k < 3; k++) {
			int t = (255 - in[k]) * nk + 128;
			int v = nk - (((t >> 8) + t) >> 8);
			out[k] = v < 0 ? 0 : v;
		}
	}
}

// The columns decoded on each side of the crop: libjpeg-turbo's fancy
// upsampling treats the edges of a cropped region as the image's edges, so
// the crop's own edge pixels need their neighbours' chroma.
#define MARGIN 4

int ojt_decode(ojt_req *r, const unsigned char *data, unsigned long size, unsigned char *out) {
	struct jpeg_decompress_struct cinfo;
	struct ojt_err err;
	JSAMPROW row = NULL;

	memset(&err, 0, sizeof err);
	cinfo.err = lib.std_error(&err.pub);
	err.pub.error_exit = on_error;
	err.pub.emit_message = on_message;
	if (setjmp(err.jump)) {
		snprintf(r->msg, sizeof r->msg, "%s", err.msg);
		r->warnings = (int)err.pub.num_warnings;
		lib.destroy(&cinfo);
		return err.code;
	}
	lib.create(&cinfo, JPEG_LIB_VERSION, sizeof cinfo);
	lib.mem_src(&cinfo, data, size);
	lib.read_header(&cinfo, TRUE);
	int is_cmyk = cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK;
	cinfo.out_color_space = is_cmyk ? JCS_CMYK : JCS_RGB;
	cinfo.scale_num = r->num;
	cinfo.scale_denom = 8;
	lib.start(&cinfo);
	if ((int)cinfo.output_width != r->width || (int)cinfo.output_height != r->height ||
	    r->x0 < 0 || r->x1 > r->width || r->x0 >= r->x1 || r->y0 < 0 || r->y1 > r->height || r->y0 >= r->y1) {
		snprintf(r->msg, sizeof r->msg, "libjpeg-turbo decodes %ux%u pixels at scale %d/8, the header said %dx%d",
		         cinfo.output_width, cinfo.output_height, r->num, r->width, r->height);
		lib.destroy(&cinfo);
		return OJT_ERR_SIZE;
	}
	JDIMENSION xoff = r->x0 > MARGIN ? r->x0 - MARGIN : 0;
	JDIMENSION xend = r->x1 + MARGIN < r->width ? r->x1 + MARGIN : r->width;
	JDIMENSION width = xend - xoff;
	// libjpeg-turbo 2.1.5 decodes some columns of a cropped region wrong when
	// chroma is subsampled 4 times horizontally (4:1:0) and the image is
	// scaled: such images are decoded at full width (the tests compare every
	// crop with the full decode).
	if (cinfo.max_h_samp_factor > 2 && r->num < 8) {
		xoff = 0;
		width = cinfo.output_width;
	}
	lib.crop(&cinfo, &xoff, &width); // moves xoff left to an iMCU boundary
	int comps = cinfo.output_components;
	size_t skip = (size_t)(r->x0 - (int)xoff) * comps;
	int w = r->x1 - r->x0;
	int direct = !is_cmyk && skip == 0 && (int)width == w;
	if (!direct)
		row = (*cinfo.mem->alloc_sarray)((j_common_ptr)&cinfo, JPOOL_IMAGE, width * comps, 1)[0];
	if (r->y0 > 0)
		lib.skip(&cinfo, r->y0);
	for (int y = r->y0; y < r->y1; y++) {
		unsigned char *o = out + (size_t)(y - r->y0) * r->stride;
		JSAMPROW p = direct ? o : row;
		lib.read(&cinfo, &p, 1);
		if (direct)
			continue;
		if (is_cmyk)
			cmyk(o, row + skip, w);
		else
			memcpy(o, row + skip, (size_t)w * 3);
	}
	r->warnings = (int)err.pub.num_warnings;
	// The rows below the crop are not decoded; destroying aborts.
	lib.destroy(&cinfo);
	return OJT_OK;
}

#endif
