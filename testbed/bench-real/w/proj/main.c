#include <stdio.h>
#include "proj.h"
int main(void)
{
	struct node *l = list_build(1000);
	printf("%u %u %zu\n", list_sum(l), hash_str("bench-real"), text_words("a small C project, built by make"));
	return 0;
}
