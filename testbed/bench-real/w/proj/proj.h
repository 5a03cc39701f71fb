#include <stddef.h>
struct node { struct node *next; unsigned key; };
struct node *list_build(unsigned n);
unsigned list_sum(const struct node *l);
unsigned hash_str(const char *s);
size_t text_words(const char *s);
