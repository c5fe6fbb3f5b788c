#include "textflag.h"

// func dotsAVX2(q *int16, codes *int8, dim, n int, out *int32)
// Sixteen components at a time: sign-extend the int8 code to int16,
// multiply by the int16 query and add pairs into int32 lanes (VPMADDWD);
// the last dim%16 one by one.
TEXT ·dotsAVX2(SB), NOSPLIT, $0-40
	MOVQ q+0(FP), SI
	MOVQ codes+8(FP), DI
	MOVQ dim+16(FP), R8
	MOVQ n+24(FP), R9
	MOVQ out+32(FP), R10
	MOVQ R8, R11
	ANDQ $-16, R11

vec:
	TESTQ R9, R9
	JZ    done
	VPXOR Y0, Y0, Y0
	XORQ  CX, CX

block:
	CMPQ      CX, R11
	JGE       sum
	VPMOVSXBW (DI)(CX*1), Y1
	VPMADDWD  (SI)(CX*2), Y1, Y1
	VPADDD    Y1, Y0, Y0
	ADDQ      $16, CX
	JMP       block

sum:
	VEXTRACTI128 $1, Y0, X1
	VPADDD       X1, X0, X0
	VPSHUFD      $0x4E, X0, X1
	VPADDD       X1, X0, X0
	VPSHUFD      $0xB1, X0, X1
	VPADDD       X1, X0, X0
	VMOVD        X0, AX

tail:
	CMPQ    CX, R8
	JGE     store
	MOVBQSX (DI)(CX*1), BX
	MOVWQSX (SI)(CX*2), DX
	IMULQ   DX, BX
	ADDL    BX, AX
	INCQ    CX
	JMP     tail

store:
	MOVL AX, (R10)
	ADDQ $4, R10
	ADDQ R8, DI
	DECQ R9
	JMP  vec

done:
	VZEROUPPER
	RET

// func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL eaxArg+0(FP), AX
	MOVL ecxArg+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET

// func xgetbv() (eax, edx uint32)
TEXT ·xgetbv(SB), NOSPLIT, $0-8
	MOVL $0, CX
	XGETBV
	MOVL AX, eax+0(FP)
	MOVL DX, edx+4(FP)
	RET
