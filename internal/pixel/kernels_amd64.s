//go:build !purego

#include "textflag.h"

// half is 1<<21, the rounding of Pillow's fixed-point sums, in 8 lanes.
DATA half<>+0(SB)/4, $0x200000
DATA half<>+4(SB)/4, $0x200000
DATA half<>+8(SB)/4, $0x200000
DATA half<>+12(SB)/4, $0x200000
DATA half<>+16(SB)/4, $0x200000
DATA half<>+20(SB)/4, $0x200000
DATA half<>+24(SB)/4, $0x200000
DATA half<>+28(SB)/4, $0x200000
GLOBL half<>(SB), RODATA|NOPTR, $32

// func hrowAVX2(out, in *uint8, meta *int32, masks *uint8, w *int32, npairs int)
//
// For each pair: two 16-byte windows (at in+baseA and in+baseB, 3 bytes
// further per tap) are loaded into the two lanes of a register; a byte
// shuffle picks each of the 8 values' samples into 32-bit lanes (the other
// bytes zero); the lanes are multiplied by the tap's weights and summed, two
// taps a step into two sums. The sums are shifted, saturated to bytes and
// stored at out+outA and out+outB.
TEXT ·hrowAVX2(SB), NOSPLIT, $0-48
	MOVQ out+0(FP), DI
	MOVQ in+8(FP), SI
	MOVQ meta+16(FP), R8
	MOVQ masks+24(FP), R9
	MOVQ w+32(FP), R10
	MOVQ npairs+40(FP), R11
	VMOVDQU half<>(SB), Y15

pair:
	MOVLQSX 0(R8), AX          // base of A
	MOVLQSX 4(R8), R13         // base of B
	MOVLQSX 8(R8), CX          // taps, even and at least 2
	LEAQ    (SI)(AX*1), R12    // A's window
	SUBQ    AX, R13            // B's window is R13 bytes further
	SHLQ    $5, CX
	LEAQ    (R10)(CX*1), R14   // the end of the pair's weights
	VMOVDQU (R9), Y1           // the shuffle
	VMOVDQA Y15, Y0            // the sums of even taps
	VPXOR   Y4, Y4, Y4         // and of odd taps

tap:
	VMOVDQU     (R12), X2
	VINSERTI128 $1, (R12)(R13*1), Y2, Y2
	VMOVDQU     3(R12), X3
	VINSERTI128 $1, 3(R12)(R13*1), Y3, Y3
	VPSHUFB     Y1, Y2, Y2
	VPSHUFB     Y1, Y3, Y3
	VPMULLD     (R10), Y2, Y2
	VPMULLD     32(R10), Y3, Y3
	VPADDD      Y2, Y0, Y0
	VPADDD      Y3, Y4, Y4
	ADDQ        $6, R12
	ADDQ        $64, R10
	CMPQ        R10, R14
	JNE         tap

	VPADDD       Y4, Y0, Y0
	VPSRAD       $22, Y0, Y0
	VPACKSSDW    Y0, Y0, Y0
	VPACKUSWB    Y0, Y0, Y0
	MOVLQSX      12(R8), AX   // output offset of A
	MOVLQSX      16(R8), BX   // output offset of B
	VMOVD        X0, (DI)(AX*1)
	VEXTRACTI128 $1, Y0, X3
	VMOVD        X3, (DI)(BX*1)

	ADDQ $32, R8
	ADDQ $32, R9
	DECQ R11
	JNZ  pair
	VZEROUPPER
	RET

// func vrowAVX2(out *uint8, n int, rows *uint8, stride int, k *int32, nk int)
//
// 16 values at a time: for each tap, 16 bytes of its row widened to two
// registers of 32-bit lanes, multiplied by the tap's weight and summed; the
// sums shifted, saturated to bytes and stored.
TEXT ·vrowAVX2(SB), NOSPLIT, $0-48
	MOVQ out+0(FP), DI
	MOVQ n+8(FP), R11
	MOVQ rows+16(FP), SI
	MOVQ stride+24(FP), DX
	MOVQ k+32(FP), R8
	MOVQ nk+40(FP), R9
	VMOVDQU half<>(SB), Y15

block:
	VMOVDQA Y15, Y0
	VMOVDQA Y15, Y1
	MOVQ    SI, R12
	MOVQ    R8, R10
	MOVQ    R9, CX

vtap:
	VPBROADCASTD (R10), Y4
	VPMOVZXBD    (R12), Y2
	VPMOVZXBD    8(R12), Y3
	VPMULLD      Y4, Y2, Y2
	VPMULLD      Y4, Y3, Y3
	VPADDD       Y2, Y0, Y0
	VPADDD       Y3, Y1, Y1
	ADDQ         DX, R12
	ADDQ         $4, R10
	DECQ         CX
	JNZ          vtap

	VPSRAD    $22, Y0, Y0
	VPSRAD    $22, Y1, Y1
	VPACKSSDW Y1, Y0, Y0    // lanes: 0-3 of Y0, 0-3 of Y1 | 4-7 of Y0, 4-7 of Y1
	VPERMQ    $0xD8, Y0, Y0 // values 0-7 of Y0 | 0-7 of Y1
	VPACKUSWB Y0, Y0, Y0    // bytes: Y0's 8 twice | Y1's 8 twice
	VPERMQ    $0x08, Y0, Y0 // Y0's 8, Y1's 8 in the low 16 bytes
	VMOVDQU   X0, (DI)

	ADDQ $16, DI
	ADDQ $16, SI
	SUBQ $16, R11
	JNZ  block
	VZEROUPPER
	RET

// func lutCHWAVX2(red, green, blue *float32, px *uint8, n int, lut *[3][256]float32, masks *[3][32]uint8, flip bool)
//
// 8 pixels a step: 16 bytes at px (pixels 0 to 3) in the low lane and 16 at
// px+8 (pixels 4 to 7) in the high lane; a byte shuffle per channel makes the
// samples 32-bit indices, gathered from the channel's table and stored to its
// plane: at red, green, blue going up, or with flip, reversed, going down
// (the caller points them at the last 8 floats).
TEXT ·lutCHWAVX2(SB), NOSPLIT, $0-57
	MOVQ   red+0(FP), DI
	MOVQ   green+8(FP), R8
	MOVQ   blue+16(FP), R9
	MOVQ   px+24(FP), SI
	MOVQ   n+32(FP), CX
	MOVQ   lut+40(FP), DX
	MOVQ   masks+48(FP), AX
	MOVBLZX flip+56(FP), BX
	VMOVDQU (AX), Y10
	VMOVDQU 32(AX), Y11
	VMOVDQU 64(AX), Y12
	LEAQ   1024(DX), R10
	LEAQ   2048(DX), R11
	MOVQ   $32, R12          // the step of the stores
	VMOVDQU reverse<>(SB), Y13
	TESTQ  BX, BX
	JZ     lut
	NEGQ   R12

lut:
	VMOVDQU     (SI), X0
	VINSERTI128 $1, 8(SI), Y0, Y0
	VPSHUFB     Y10, Y0, Y1
	VPSHUFB     Y11, Y0, Y2
	VPSHUFB     Y12, Y0, Y3
	VPCMPEQD    Y4, Y4, Y4
	VPGATHERDD  Y4, (DX)(Y1*4), Y5
	VPCMPEQD    Y4, Y4, Y4
	VPGATHERDD  Y4, (R10)(Y2*4), Y6
	VPCMPEQD    Y4, Y4, Y4
	VPGATHERDD  Y4, (R11)(Y3*4), Y7
	TESTQ       BX, BX
	JZ          store
	VPERMD      Y5, Y13, Y5
	VPERMD      Y6, Y13, Y6
	VPERMD      Y7, Y13, Y7

store:
	VMOVDQU Y5, (DI)
	VMOVDQU Y6, (R8)
	VMOVDQU Y7, (R9)
	ADDQ    $24, SI
	ADDQ    R12, DI
	ADDQ    R12, R8
	ADDQ    R12, R9
	SUBQ    $8, CX
	JNZ     lut
	VZEROUPPER
	RET

// reverse is the permutation of 8 lanes that reverses them.
DATA reverse<>+0(SB)/4, $7
DATA reverse<>+4(SB)/4, $6
DATA reverse<>+8(SB)/4, $5
DATA reverse<>+12(SB)/4, $4
DATA reverse<>+16(SB)/4, $3
DATA reverse<>+20(SB)/4, $2
DATA reverse<>+24(SB)/4, $1
DATA reverse<>+28(SB)/4, $0
GLOBL reverse<>(SB), RODATA|NOPTR, $32

// func shuffle3AVX2(o0, o1, o2 *uint8, lo, hi, step int, px *uint8, n int, masks *[9][32]uint8)
//
// 32 pixels a step (n, a multiple of 32, in all): the 96 bytes at px go in
// three registers, bytes 0-47 (pixels 0-15) in their low lanes and 48-95
// (pixels 16-31) in their high lanes, 16 bytes each. Output j is the or of
// the three registers shuffled by masks 3j, 3j+1 and 3j+2; its low lane is
// stored at oj+lo and its high lane at oj+hi, and each oj moves step bytes
// for the next 32 pixels.
TEXT ·shuffle3AVX2(SB), NOSPLIT, $0-72
	MOVQ o0+0(FP), DI
	MOVQ o1+8(FP), R8
	MOVQ o2+16(FP), R9
	MOVQ lo+24(FP), R10
	MOVQ hi+32(FP), R11
	MOVQ step+40(FP), R12
	MOVQ px+48(FP), SI
	MOVQ n+56(FP), CX
	MOVQ masks+64(FP), AX
	VMOVDQU 0(AX), Y7
	VMOVDQU 32(AX), Y8
	VMOVDQU 64(AX), Y9
	VMOVDQU 96(AX), Y10
	VMOVDQU 128(AX), Y11
	VMOVDQU 160(AX), Y12
	VMOVDQU 192(AX), Y13
	VMOVDQU 224(AX), Y14
	VMOVDQU 256(AX), Y15

shuffle:
	VMOVDQU     (SI), X0
	VINSERTI128 $1, 48(SI), Y0, Y0
	VMOVDQU     16(SI), X1
	VINSERTI128 $1, 64(SI), Y1, Y1
	VMOVDQU     32(SI), X2
	VINSERTI128 $1, 80(SI), Y2, Y2

	VPSHUFB Y7, Y0, Y3
	VPSHUFB Y8, Y1, Y4
	VPOR    Y4, Y3, Y3
	VPSHUFB Y9, Y2, Y4
	VPOR    Y4, Y3, Y3

	VPSHUFB Y10, Y0, Y5
	VPSHUFB Y11, Y1, Y4
	VPOR    Y4, Y5, Y5
	VPSHUFB Y12, Y2, Y4
	VPOR    Y4, Y5, Y5

	VPSHUFB Y13, Y0, Y6
	VPSHUFB Y14, Y1, Y4
	VPOR    Y4, Y6, Y6
	VPSHUFB Y15, Y2, Y4
	VPOR    Y4, Y6, Y6

	VMOVDQU      X3, (DI)(R10*1)
	VEXTRACTI128 $1, Y3, (DI)(R11*1)
	VMOVDQU      X5, (R8)(R10*1)
	VEXTRACTI128 $1, Y5, (R8)(R11*1)
	VMOVDQU      X6, (R9)(R10*1)
	VEXTRACTI128 $1, Y6, (R9)(R11*1)

	ADDQ $96, SI
	ADDQ R12, DI
	ADDQ R12, R8
	ADDQ R12, R9
	SUBQ $32, CX
	JNZ  shuffle
	VZEROUPPER
	RET
