/* __popcountdi2 without LSX, linked before libgcc into the static test
 * programs.  Debian 13's loong64 libgcc is built for la64v1.0 and counts
 * bits with the LSX instruction vpcnt, which Debian 12's qemu-user 7.2
 * (la464 without LSX) does not know; glibc's malloc calls it through
 * __builtin_popcount when built for the base ISA.  Plain SWAR arithmetic,
 * so the compiler does not turn it back into a libcall.
 * SPDX-License-Identifier: MIT */
int __popcountdi2(unsigned long x);

int __popcountdi2(unsigned long x)
{
	x = x - ((x >> 1) & 0x5555555555555555UL);
	x = (x & 0x3333333333333333UL) + ((x >> 2) & 0x3333333333333333UL);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fUL;
	return (int)((x * 0x0101010101010101UL) >> 56);
}
