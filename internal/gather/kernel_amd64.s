//go:build !purego

#include "textflag.h"

// func rowsAsm(dst, src unsafe.Pointer, off, n, stride int, idx *int, count, dist, movs, wide, head int)
//
// Registers: DI destination (advances row by row), SI and CX the row being
// copied, R8 src+off, R9 n, R10 stride, R11 idx, R12 count, BX the row being
// copied (j), and the prefetch cursor: R14 its row, DX its byte offset in that
// row, R13 its budget (bytes of the gathered rows still to pass to stay dist
// ahead of the copy; a row counts whole though only its first head bytes are
// requested).
TEXT ·rowsAsm(SB), NOSPLIT, $0-88
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), R8
	ADDQ off+16(FP), R8
	MOVQ n+24(FP), R9
	MOVQ stride+32(FP), R10
	MOVQ idx+40(FP), R11
	MOVQ count+48(FP), R12
	MOVQ dist+56(FP), R13
	XORQ BX, BX
	XORQ R14, R14
	XORQ DX, DX

row:
	CMPQ BX, R12
	JGE  done
	ADDQ R9, R13 // stay dist bytes past the end of row j

prefetch:
	TESTQ R13, R13
	JLE   copyrow
	CMPQ  R14, R12
	JGE   copyrow
	MOVQ  (R11)(R14*8), AX
	IMULQ R10, AX
	ADDQ  R8, AX
	PREFETCHT0 (AX)(DX*1)
	ADDQ  $64, DX
	SUBQ  $64, R13
	CMPQ  DX, R9
	JGE   rowend
	CMPQ  DX, head+80(FP)
	JLT   prefetch
	JMP   nextrow // the row's head is requested: the hardware follows it

rowend:
	PREFETCHT0 -1(AX)(R9*1) // the row's last line, when it does not start a line

nextrow:
	SUBQ  R9, DX // charge the row's bytes left unrequested, or refund those past its end
	ADDQ  DX, R13
	XORQ  DX, DX
	INCQ  R14
	JMP   prefetch

copyrow:
	MOVQ  (R11)(BX*8), SI
	IMULQ R10, SI
	ADDQ  R8, SI
	INCQ  BX
	CMPQ  R9, movs+64(FP)
	JGE   movsb
	CMPQ  R9, $64
	JLT   small
	MOVQ  R9, CX
	CMPQ  wide+72(FP), $0
	JNE   avx

vec:
	MOVOU (SI), X0
	MOVOU 16(SI), X1
	MOVOU 32(SI), X2
	MOVOU 48(SI), X3
	MOVOU X0, (DI)
	MOVOU X1, 16(DI)
	MOVOU X2, 32(DI)
	MOVOU X3, 48(DI)
	ADDQ  $64, SI
	ADDQ  $64, DI
	SUBQ  $64, CX
	CMPQ  CX, $64
	JGE   vec

tail: // 0 <= CX < 64 bytes left: move the row's last 64 bytes
	TESTQ CX, CX
	JEQ   row
	MOVOU -64(SI)(CX*1), X0
	MOVOU -48(SI)(CX*1), X1
	MOVOU -32(SI)(CX*1), X2
	MOVOU -16(SI)(CX*1), X3
	MOVOU X0, -64(DI)(CX*1)
	MOVOU X1, -48(DI)(CX*1)
	MOVOU X2, -32(DI)(CX*1)
	MOVOU X3, -16(DI)(CX*1)
	ADDQ  CX, DI
	JMP   row

avx: // 32-byte moves (AVX2)
	CMPQ    CX, $256
	JLT     avx64
	// A row of 256 bytes or more, as glibc's memcpy moves it: its first 32
	// bytes and its last 128 are loaded first (the misses of the row's two
	// ends overlap), the bytes between move 128 a round with the stores
	// aligned to 32 bytes (a store that splits a cache line costs twice), and
	// the last 128 bytes are stored from the registers that hold them.
	VMOVDQU (SI), Y0
	VMOVDQU -128(SI)(CX*1), Y4
	VMOVDQU -96(SI)(CX*1), Y5
	VMOVDQU -64(SI)(CX*1), Y6
	VMOVDQU -32(SI)(CX*1), Y7
	VMOVDQU Y0, (DI)
	MOVQ    DI, AX
	ANDQ    $31, AX
	NEGQ    AX
	ADDQ    $32, AX // 1 to 32 bytes to the next aligned store
	ADDQ    AX, SI
	ADDQ    AX, DI
	SUBQ    AX, CX

avx128: // CX > 128 here: the row has at least 224 bytes left
	VMOVDQU (SI), Y0
	VMOVDQU 32(SI), Y1
	VMOVDQU 64(SI), Y2
	VMOVDQU 96(SI), Y3
	VMOVDQA Y0, (DI)
	VMOVDQA Y1, 32(DI)
	VMOVDQA Y2, 64(DI)
	VMOVDQA Y3, 96(DI)
	ADDQ    $128, SI
	ADDQ    $128, DI
	SUBQ    $128, CX
	CMPQ    CX, $128
	JGT     avx128
	VMOVDQU Y4, -128(DI)(CX*1)
	VMOVDQU Y5, -96(DI)(CX*1)
	VMOVDQU Y6, -64(DI)(CX*1)
	VMOVDQU Y7, -32(DI)(CX*1)
	ADDQ    CX, DI
	JMP     row

avx64: // 64 bytes a round
	VMOVDQU (SI), Y0
	VMOVDQU 32(SI), Y1
	VMOVDQU Y0, (DI)
	VMOVDQU Y1, 32(DI)
	ADDQ    $64, SI
	ADDQ    $64, DI
	SUBQ    $64, CX
	CMPQ    CX, $64
	JGE     avx64

avxtail:
	TESTQ   CX, CX // then the row's last 64 bytes
	JEQ     row
	VMOVDQU -64(SI)(CX*1), Y0
	VMOVDQU -32(SI)(CX*1), Y1
	VMOVDQU Y0, -64(DI)(CX*1)
	VMOVDQU Y1, -32(DI)(CX*1)
	ADDQ    CX, DI
	JMP     row

movsb:
	MOVQ R9, CX
	REP; MOVSB
	JMP  row

small: // 1 <= n < 64: two moves that overlap in the middle
	CMPQ  R9, $32
	JLT   lt32
	MOVOU (SI), X0
	MOVOU 16(SI), X1
	MOVOU -32(SI)(R9*1), X2
	MOVOU -16(SI)(R9*1), X3
	MOVOU X0, (DI)
	MOVOU X1, 16(DI)
	MOVOU X2, -32(DI)(R9*1)
	MOVOU X3, -16(DI)(R9*1)
	ADDQ  R9, DI
	JMP   row

lt32:
	CMPQ  R9, $16
	JLT   lt16
	MOVOU (SI), X0
	MOVOU -16(SI)(R9*1), X1
	MOVOU X0, (DI)
	MOVOU X1, -16(DI)(R9*1)
	ADDQ  R9, DI
	JMP   row

lt16:
	CMPQ R9, $8
	JLT  lt8
	MOVQ (SI), AX
	MOVQ -8(SI)(R9*1), CX
	MOVQ AX, (DI)
	MOVQ CX, -8(DI)(R9*1)
	ADDQ R9, DI
	JMP  row

lt8:
	CMPQ R9, $4
	JLT  lt4
	MOVL (SI), AX
	MOVL -4(SI)(R9*1), CX
	MOVL AX, (DI)
	MOVL CX, -4(DI)(R9*1)
	ADDQ R9, DI
	JMP  row

lt4:
	CMPQ R9, $2
	JLT  one
	MOVW (SI), AX
	MOVW -2(SI)(R9*1), CX
	MOVW AX, (DI)
	MOVW CX, -2(DI)(R9*1)
	ADDQ R9, DI
	JMP  row

one:
	MOVB (SI), AX
	MOVB AX, (DI)
	INCQ DI
	JMP  row

done:
	CMPQ wide+72(FP), $0
	JEQ  ret
	VZEROUPPER

ret:
	RET

// func columnAsm(dst, src unsafe.Pointer, off, next, scale int, idx *int, count, size int)
//
// Registers: DI destination, R8 src+off (the picks), R9 src+next (the picks
// prefetched), R10 scale, R11 idx, CX count, BX the pick (j), AX and DX the
// picks' offsets, then their elements. Where the scale is the element size
// (rows of unit stride, the usual observation-last array) the offsets are
// scaled in the addressing and two picks go per iteration: fewer
// instructions per pick leave room in the reorder buffer for more loads in
// flight, which is what a gather of random lines waits on.
TEXT ·columnAsm(SB), NOSPLIT, $0-64
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), R8
	MOVQ R8, R9
	ADDQ off+16(FP), R8
	ADDQ next+24(FP), R9
	MOVQ scale+32(FP), R10
	MOVQ idx+40(FP), R11
	MOVQ count+48(FP), CX
	MOVQ size+56(FP), R12
	XORQ BX, BX
	TESTQ CX, CX
	JLE  picked
	MOVQ CX, R13
	ANDQ $-2, R13 // the picks that go in pairs
	CMPQ R12, $1
	JNE  not1
	CMPQ R10, $1
	JEQ  unit1
	JMP  pick1
not1:
	CMPQ R12, $2
	JNE  not2
	CMPQ R10, $2
	JEQ  unit2
	JMP  pick2
not2:
	CMPQ R12, $4
	JNE  not4
	CMPQ R10, $4
	JEQ  unit4
	JMP  pick4
not4:
	CMPQ R12, $8
	JNE  not8
	CMPQ R10, $8
	JEQ  unit8
	JMP  pick8
not8:
	RET

unit1:
	CMPQ BX, R13
	JGE  unit1tail
	MOVQ (R11)(BX*8), AX
	MOVQ 8(R11)(BX*8), DX
	PREFETCHT0 (R9)(AX*1)
	PREFETCHT0 (R9)(DX*1)
	MOVBLZX (R8)(AX*1), AX
	MOVBLZX (R8)(DX*1), DX
	MOVB AX, (DI)(BX*1)
	MOVB DX, 1(DI)(BX*1)
	ADDQ $2, BX
	JMP  unit1

unit1tail:
	CMPQ BX, CX
	JGE  picked
	MOVQ (R11)(BX*8), AX
	PREFETCHT0 (R9)(AX*1)
	MOVBLZX (R8)(AX*1), AX
	MOVB AX, (DI)(BX*1)
	RET

pick1:
	MOVQ  (R11)(BX*8), AX
	IMULQ R10, AX
	PREFETCHT0 (R9)(AX*1)
	MOVBLZX (R8)(AX*1), AX
	MOVB AX, (DI)(BX*1)
	INCQ  BX
	CMPQ  BX, CX
	JLT   pick1
	RET

unit2:
	CMPQ BX, R13
	JGE  unit2tail
	MOVQ (R11)(BX*8), AX
	MOVQ 8(R11)(BX*8), DX
	PREFETCHT0 (R9)(AX*2)
	PREFETCHT0 (R9)(DX*2)
	MOVWLZX (R8)(AX*2), AX
	MOVWLZX (R8)(DX*2), DX
	MOVW AX, (DI)(BX*2)
	MOVW DX, 2(DI)(BX*2)
	ADDQ $2, BX
	JMP  unit2

unit2tail:
	CMPQ BX, CX
	JGE  picked
	MOVQ (R11)(BX*8), AX
	PREFETCHT0 (R9)(AX*2)
	MOVWLZX (R8)(AX*2), AX
	MOVW AX, (DI)(BX*2)
	RET

pick2:
	MOVQ  (R11)(BX*8), AX
	IMULQ R10, AX
	PREFETCHT0 (R9)(AX*1)
	MOVWLZX (R8)(AX*1), AX
	MOVW AX, (DI)(BX*2)
	INCQ  BX
	CMPQ  BX, CX
	JLT   pick2
	RET

unit4:
	CMPQ BX, R13
	JGE  unit4tail
	MOVQ (R11)(BX*8), AX
	MOVQ 8(R11)(BX*8), DX
	PREFETCHT0 (R9)(AX*4)
	PREFETCHT0 (R9)(DX*4)
	MOVL (R8)(AX*4), AX
	MOVL (R8)(DX*4), DX
	MOVL AX, (DI)(BX*4)
	MOVL DX, 4(DI)(BX*4)
	ADDQ $2, BX
	JMP  unit4

unit4tail:
	CMPQ BX, CX
	JGE  picked
	MOVQ (R11)(BX*8), AX
	PREFETCHT0 (R9)(AX*4)
	MOVL (R8)(AX*4), AX
	MOVL AX, (DI)(BX*4)
	RET

pick4:
	MOVQ  (R11)(BX*8), AX
	IMULQ R10, AX
	PREFETCHT0 (R9)(AX*1)
	MOVL (R8)(AX*1), AX
	MOVL AX, (DI)(BX*4)
	INCQ  BX
	CMPQ  BX, CX
	JLT   pick4
	RET

unit8:
	CMPQ BX, R13
	JGE  unit8tail
	MOVQ (R11)(BX*8), AX
	MOVQ 8(R11)(BX*8), DX
	PREFETCHT0 (R9)(AX*8)
	PREFETCHT0 (R9)(DX*8)
	MOVQ (R8)(AX*8), AX
	MOVQ (R8)(DX*8), DX
	MOVQ AX, (DI)(BX*8)
	MOVQ DX, 8(DI)(BX*8)
	ADDQ $2, BX
	JMP  unit8

unit8tail:
	CMPQ BX, CX
	JGE  picked
	MOVQ (R11)(BX*8), AX
	PREFETCHT0 (R9)(AX*8)
	MOVQ (R8)(AX*8), AX
	MOVQ AX, (DI)(BX*8)
	RET

pick8:
	MOVQ  (R11)(BX*8), AX
	IMULQ R10, AX
	PREFETCHT0 (R9)(AX*1)
	MOVQ (R8)(AX*1), AX
	MOVQ AX, (DI)(BX*8)
	INCQ  BX
	CMPQ  BX, CX
	JLT   pick8
	RET

picked:
	RET

// func prefetchPicksAsm(src unsafe.Pointer, off, scale int, idx *int, count int)
TEXT ·prefetchPicksAsm(SB), NOSPLIT, $0-40
	MOVQ src+0(FP), R8
	ADDQ off+8(FP), R8
	MOVQ scale+16(FP), R10
	MOVQ idx+24(FP), R11
	MOVQ count+32(FP), R12
	XORQ BX, BX

pick:
	CMPQ  BX, R12
	JGE   picked
	MOVQ  (R11)(BX*8), AX
	IMULQ R10, AX
	PREFETCHT0 (R8)(AX*1)
	INCQ  BX
	JMP   pick

picked:
	RET

// func cpuid(leaf, sub uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL leaf+0(FP), AX
	MOVL sub+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET
