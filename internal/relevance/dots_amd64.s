#include "textflag.h"

// func dotRowsAVX2(q, rows *float32, dim, stride, n int, out *float64)
// For each of n rows, stride float32s apart: blocks of 32 components into
// four accumulators of eight lanes by fused multiply-add, the accumulators
// summed ((Y0+Y1)+Y2)+Y3, the eight lanes folded in halves, then the last
// dim%32 components one by one; the float32 sum is stored widened.
TEXT ·dotRowsAVX2(SB), NOSPLIT, $0-48
	MOVQ q+0(FP), SI
	MOVQ rows+8(FP), DI
	MOVQ dim+16(FP), DX
	MOVQ stride+24(FP), R8
	SHLQ $2, R8
	MOVQ n+32(FP), R9
	MOVQ out+40(FP), R10
	MOVQ DX, R11
	ANDQ $-32, R11

row:
	TESTQ  R9, R9
	JZ     done
	VXORPS X0, X0, X0
	XORQ   AX, AX
	TESTQ  R11, R11
	JZ     tail
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3

block:
	VMOVUPS     (SI)(AX*4), Y4
	VMOVUPS     32(SI)(AX*4), Y5
	VMOVUPS     64(SI)(AX*4), Y6
	VMOVUPS     96(SI)(AX*4), Y7
	VFMADD231PS (DI)(AX*4), Y4, Y0
	VFMADD231PS 32(DI)(AX*4), Y5, Y1
	VFMADD231PS 64(DI)(AX*4), Y6, Y2
	VFMADD231PS 96(DI)(AX*4), Y7, Y3
	ADDQ        $32, AX
	CMPQ        AX, R11
	JNE         block
	VADDPS      Y0, Y1, Y0
	VADDPS      Y0, Y2, Y0
	VADDPS      Y0, Y3, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS      X1, X0, X0
	VPERMILPD   $1, X0, X1
	VADDPS      X1, X0, X0
	VMOVSHDUP   X0, X1
	VADDSS      X1, X0, X0

tail:
	CMPQ        AX, DX
	JGE         store
	VMOVSS      (SI)(AX*4), X1
	VFMADD231SS (DI)(AX*4), X1, X0
	INCQ        AX
	JMP         tail

store:
	VCVTSS2SD X0, X0, X0
	VMOVSD    X0, (R10)
	ADDQ      $8, R10
	ADDQ      R8, DI
	DECQ      R9
	JMP       row

done:
	VZEROUPPER
	RET

// func codeDotSSE(c *int8, v *float32, n int) float64
// Lane k sums c[i]·v[i] for i ≡ k (mod 4), each product rounded to float32
// and then added, as four scalar sums would; the last n%4 go to lane 0;
// the lanes are added 0+1, +2, +3, and the sum widened.
TEXT ·codeDotSSE(SB), NOSPLIT, $0-32
	MOVQ c+0(FP), SI
	MOVQ v+8(FP), DI
	MOVQ n+16(FP), DX
	MOVQ DX, R11
	ANDQ $-4, R11
	XORPS X0, X0
	XORQ AX, AX

lanes:
	CMPQ     AX, R11
	JGE      rest
	PMOVSXBD (SI)(AX*1), X1
	CVTPL2PS X1, X1
	MOVUPS   (DI)(AX*4), X2
	MULPS    X2, X1
	ADDPS    X1, X0
	ADDQ     $4, AX
	JMP      lanes

rest:
	CMPQ     AX, DX
	JGE      sum
	MOVBQSX  (SI)(AX*1), BX
	CVTSQ2SS BX, X1
	MULSS    (DI)(AX*4), X1
	ADDSS    X1, X0
	INCQ     AX
	JMP      rest

sum:
	MOVAPS   X0, X2
	MOVAPS   X0, X1
	SHUFPS   $0x55, X1, X1
	ADDSS    X1, X2
	MOVAPS   X0, X1
	SHUFPS   $0xAA, X1, X1
	ADDSS    X1, X2
	MOVAPS   X0, X1
	SHUFPS   $0xFF, X1, X1
	ADDSS    X1, X2
	CVTSS2SD X2, X2
	MOVSD    X2, ret+24(FP)
	RET
