/*
 * wordfreq: a small but real workload for profile tests. It makes a
 * deterministic stream of pseudo-words, counts them in a chained hash
 * table, sorts the words twice (merge sort by frequency, libc qsort
 * alphabetically, whose comparator is a callback from libc) and runs a few
 * string passes. Small static helpers get inlined at -O2.
 *
 * usage: wordfreq [N]    N words (default 20000)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXWORD 32

struct entry {
	struct entry *next;
	uint32_t hash;
	unsigned count;
	char word[MAXWORD];
};

struct table {
	struct entry **buckets;
	size_t nbuckets;
	size_t size;
};

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static inline uint32_t next_random(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state >> 16);
}

static const char *syllables[] = {
	"ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "pa",
	"qu", "ex", "ing", "tion", "al", "er", "on", "st", "th", "ou",
};

/* make_word writes a word of 1 to 4 syllables, skewed towards short ones. */
static void make_word(char *out)
{
	unsigned n = 1 + (next_random() % 16 == 0) + (next_random() % 4 == 0) + (next_random() % 2 == 0);
	out[0] = 0;
	for (unsigned i = 0; i < n; i++) {
		unsigned r = next_random() % 400;
		/* Zipf-like: low indexes far more often. */
		unsigned idx = r < 200 ? r % 4 : r < 320 ? r % 10 : r % 20;
		strcat(out, syllables[idx]);
	}
}

static inline uint32_t fnv1a(const char *s)
{
	uint32_t h = 2166136261u;
	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 16777619u;
	}
	return h;
}

static void table_init(struct table *t, size_t nbuckets)
{
	t->buckets = calloc(nbuckets, sizeof *t->buckets);
	t->nbuckets = nbuckets;
	t->size = 0;
}

static void table_grow(struct table *t)
{
	size_t n = t->nbuckets * 2;
	struct entry **b = calloc(n, sizeof *b);
	for (size_t i = 0; i < t->nbuckets; i++) {
		struct entry *e = t->buckets[i];
		while (e) {
			struct entry *next = e->next;
			e->next = b[e->hash & (n - 1)];
			b[e->hash & (n - 1)] = e;
			e = next;
		}
	}
	free(t->buckets);
	t->buckets = b;
	t->nbuckets = n;
}

static struct entry *table_add(struct table *t, const char *word)
{
	uint32_t h = fnv1a(word);
	struct entry **slot = &t->buckets[h & (t->nbuckets - 1)];
	for (struct entry *e = *slot; e; e = e->next) {
		if (e->hash == h && strcmp(e->word, word) == 0) {
			e->count++;
			return e;
		}
	}
	struct entry *e = malloc(sizeof *e);
	e->hash = h;
	e->count = 1;
	strncpy(e->word, word, MAXWORD - 1);
	e->word[MAXWORD - 1] = 0;
	e->next = *slot;
	*slot = e;
	if (++t->size > t->nbuckets * 3 / 4)
		table_grow(t);
	return e;
}

static struct entry **table_entries(const struct table *t)
{
	struct entry **v = malloc(t->size * sizeof *v);
	size_t k = 0;
	for (size_t i = 0; i < t->nbuckets; i++)
		for (struct entry *e = t->buckets[i]; e; e = e->next)
			v[k++] = e;
	return v;
}

static inline int by_count(const struct entry *a, const struct entry *b)
{
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return strcmp(a->word, b->word);
}

/* merge_sort sorts v[0..n) by falling count, then word. */
static void merge_sort(struct entry **v, struct entry **tmp, size_t n)
{
	if (n < 2)
		return;
	size_t mid = n / 2;
	merge_sort(v, tmp, mid);
	merge_sort(v + mid, tmp, n - mid);
	size_t i = 0, j = mid, k = 0;
	while (i < mid && j < n)
		tmp[k++] = by_count(v[i], v[j]) <= 0 ? v[i++] : v[j++];
	while (i < mid)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, n * sizeof *v);
}

static int by_word(const void *a, const void *b)
{
	const struct entry *x = *(const struct entry *const *)a;
	const struct entry *y = *(const struct entry *const *)b;
	return strcmp(x->word, y->word);
}

static inline void reverse(char *s)
{
	size_t n = strlen(s);
	for (size_t i = 0; i < n / 2; i++) {
		char c = s[i];
		s[i] = s[n - 1 - i];
		s[n - 1 - i] = c;
	}
}

static int is_palindrome(const char *s)
{
	char buf[MAXWORD];
	strcpy(buf, s);
	reverse(buf);
	return strcmp(buf, s) == 0;
}

/* vowel_score weighs vowels by position; a loop with a switch. */
static unsigned vowel_score(const char *s)
{
	unsigned score = 0;
	for (unsigned i = 0; s[i]; i++) {
		switch (s[i]) {
		case 'a': score += 1 * (i + 1); break;
		case 'e': score += 2 * (i + 1); break;
		case 'i': score += 3 * (i + 1); break;
		case 'o': score += 4 * (i + 1); break;
		case 'u': score += 5 * (i + 1); break;
		default: score ^= i; break;
		}
	}
	return score;
}

static size_t common_prefix(const char *a, const char *b)
{
	size_t n = 0;
	while (a[n] && a[n] == b[n])
		n++;
	return n;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20000;
	struct table t;
	table_init(&t, 64);
	char word[MAXWORD * 2];
	for (long i = 0; i < n; i++) {
		make_word(word);
		word[MAXWORD - 1] = 0;
		table_add(&t, word);
	}
	struct entry **v = table_entries(&t);
	struct entry **tmp = malloc(t.size * sizeof *tmp);
	merge_sort(v, tmp, t.size);
	printf("%zu distinct words; top:", t.size);
	for (size_t i = 0; i < t.size && i < 5; i++)
		printf(" %s=%u", v[i]->word, v[i]->count);
	printf("\n");

	qsort(v, t.size, sizeof *v, by_word);
	size_t palindromes = 0, prefix = 0;
	unsigned long score = 0;
	for (size_t i = 0; i < t.size; i++) {
		palindromes += is_palindrome(v[i]->word);
		score += vowel_score(v[i]->word) * v[i]->count;
		if (i > 0)
			prefix += common_prefix(v[i - 1]->word, v[i]->word);
	}
	printf("palindromes %zu, shared prefix %zu, score %lu\n", palindromes, prefix, score);
	return 0;
}
