//go:build !purego

#include "textflag.h"

// func rowsAsm(dst, src unsafe.Pointer, off, n, stride int, idx *int, count, dist, movs, wide, head int)
//
// Registers: R0 destination (advances row by row), R1 src+off, R2 n, R3 stride,
// R4 idx, R5 count, R7 the row being copied (j), and the prefetch cursor: R8
// its row, R9 its byte offset in that row, R6 its budget (bytes still to
// prefetch to stay dist ahead of the copy). movs, wide and head are unused.
TEXT ·rowsAsm(SB), NOSPLIT, $0-88
	MOVD dst+0(FP), R0
	MOVD src+8(FP), R1
	MOVD off+16(FP), R2
	ADD  R2, R1, R1
	MOVD n+24(FP), R2
	MOVD stride+32(FP), R3
	MOVD idx+40(FP), R4
	MOVD count+48(FP), R5
	MOVD dist+56(FP), R6
	MOVD $0, R7
	MOVD $0, R8
	MOVD $0, R9

row:
	CMP R5, R7
	BGE done
	ADD R2, R6, R6 // stay dist bytes past the end of row j

prefetch:
	CMP  $0, R6
	BLE  copyrow
	CMP  R5, R8
	BGE  copyrow
	MOVD (R4)(R8<<3), R10
	MUL  R3, R10, R10
	ADD  R1, R10, R10
	ADD  R9, R10, R11
	PRFM (R11), PLDL1KEEP
	ADD  $64, R9, R9
	SUB  $64, R6, R6
	CMP  R2, R9
	BLT  prefetch
	ADD  R2, R10, R11
	SUB  $1, R11, R11
	PRFM (R11), PLDL1KEEP // the row's last line, when it does not start a line
	SUB  R2, R9, R9       // refund the bytes past the row's end
	ADD  R9, R6, R6
	MOVD $0, R9
	ADD  $1, R8, R8
	B    prefetch

copyrow:
	MOVD (R4)(R7<<3), R10
	MUL  R3, R10, R10
	ADD  R1, R10, R10 // R10: the source row
	ADD  $1, R7, R7
	ADD  R2, R10, R11 // R11: its end
	ADD  R2, R0, R12  // R12: the end of the destination row
	CMP  $64, R2
	BLT  small
	MOVD R2, R13

loop64:
	LDP  (R10), (R14, R15)
	LDP  16(R10), (R16, R17)
	LDP  32(R10), (R19, R20)
	LDP  48(R10), (R21, R22)
	STP  (R14, R15), (R0)
	STP  (R16, R17), 16(R0)
	STP  (R19, R20), 32(R0)
	STP  (R21, R22), 48(R0)
	ADD  $64, R10, R10
	ADD  $64, R0, R0
	SUB  $64, R13, R13
	CMP  $64, R13
	BGE  loop64
	CBZ  R13, row
	LDP  -64(R11), (R14, R15) // the row's last 64 bytes
	LDP  -48(R11), (R16, R17)
	LDP  -32(R11), (R19, R20)
	LDP  -16(R11), (R21, R22)
	STP  (R14, R15), -64(R12)
	STP  (R16, R17), -48(R12)
	STP  (R19, R20), -32(R12)
	STP  (R21, R22), -16(R12)
	MOVD R12, R0
	B    row

small: // 1 <= n < 64: two moves that overlap in the middle
	CMP  $32, R2
	BLT  lt32
	LDP  (R10), (R14, R15)
	LDP  16(R10), (R16, R17)
	LDP  -32(R11), (R19, R20)
	LDP  -16(R11), (R21, R22)
	STP  (R14, R15), (R0)
	STP  (R16, R17), 16(R0)
	STP  (R19, R20), -32(R12)
	STP  (R21, R22), -16(R12)
	MOVD R12, R0
	B    row

lt32:
	CMP  $16, R2
	BLT  lt16
	LDP  (R10), (R14, R15)
	LDP  -16(R11), (R16, R17)
	STP  (R14, R15), (R0)
	STP  (R16, R17), -16(R12)
	MOVD R12, R0
	B    row

lt16:
	CMP  $8, R2
	BLT  lt8
	MOVD (R10), R14
	MOVD -8(R11), R15
	MOVD R14, (R0)
	MOVD R15, -8(R12)
	MOVD R12, R0
	B    row

lt8:
	CMP   $4, R2
	BLT   lt4
	MOVWU (R10), R14
	MOVWU -4(R11), R15
	MOVW  R14, (R0)
	MOVW  R15, -4(R12)
	MOVD  R12, R0
	B     row

lt4:
	CMP   $2, R2
	BLT   one
	MOVHU (R10), R14
	MOVHU -2(R11), R15
	MOVH  R14, (R0)
	MOVH  R15, -2(R12)
	MOVD  R12, R0
	B     row

one:
	MOVBU (R10), R14
	MOVB  R14, (R0)
	MOVD  R12, R0
	B     row

done:
	RET

// func prefetchPicksAsm(src unsafe.Pointer, off, scale int, idx *int, count int)
TEXT ·prefetchPicksAsm(SB), NOSPLIT, $0-40
	MOVD src+0(FP), R1
	MOVD off+8(FP), R2
	ADD  R2, R1, R1
	MOVD scale+16(FP), R3
	MOVD idx+24(FP), R4
	MOVD count+32(FP), R5
	MOVD $0, R7

pick:
	CMP  R5, R7
	BGE  picked
	MOVD (R4)(R7<<3), R10
	MUL  R3, R10, R10
	ADD  R1, R10, R10
	PRFM (R10), PLDL1KEEP
	ADD  $1, R7, R7
	B    pick

picked:
	RET
