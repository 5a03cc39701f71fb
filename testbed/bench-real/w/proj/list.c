#include <stdlib.h>
#include "proj.h"
struct node *list_build(unsigned n)
{
	struct node *h = 0;
	for (unsigned i = 0; i < n; i++) {
		struct node *x = malloc(sizeof *x);
		x->key = i * 2654435761u;
		x->next = h;
		h = x;
	}
	return h;
}
unsigned list_sum(const struct node *l)
{
	unsigned s = 0;
	for (; l; l = l->next)
		s += l->key >> 7;
	return s;
}
unsigned hash_str(const char *s)
{
	unsigned h = 2166136261u;
	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}
size_t text_words(const char *s)
{
	size_t n = 0;
	int in = 0;
	for (; *s; s++) {
		if (*s == ' ')
			in = 0;
		else if (!in)
			in = 1, n++;
	}
	return n;
}
