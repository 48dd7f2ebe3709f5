/*
 * recurse: recursion of several shapes for profile tests: plain and
 * doubly recursive functions, mutual recursion, backtracking (N queens),
 * a recursive binary search tree and quicksort.
 *
 * usage: recurse [N]    problem size (default 8)
 */
#include <stdio.h>
#include <stdlib.h>

static unsigned long fib(unsigned n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static int is_odd(unsigned n);

static int is_even(unsigned n)
{
	return n == 0 ? 1 : is_odd(n - 1);
}

static int is_odd(unsigned n)
{
	return n == 0 ? 0 : is_even(n - 1);
}

static int safe(const int *cols, int row, int col)
{
	for (int r = 0; r < row; r++) {
		int c = cols[r];
		if (c == col || c - col == r - row || c - col == row - r)
			return 0;
	}
	return 1;
}

static unsigned queens(int *cols, int row, int n)
{
	if (row == n)
		return 1;
	unsigned count = 0;
	for (int col = 0; col < n; col++) {
		if (safe(cols, row, col)) {
			cols[row] = col;
			count += queens(cols, row + 1, n);
		}
	}
	return count;
}

struct node {
	struct node *left, *right;
	long key;
};

static struct node *insert(struct node *t, long key)
{
	if (!t) {
		t = calloc(1, sizeof *t);
		t->key = key;
		return t;
	}
	if (key < t->key)
		t->left = insert(t->left, key);
	else
		t->right = insert(t->right, key);
	return t;
}

static int height(const struct node *t)
{
	if (!t)
		return 0;
	int l = height(t->left), r = height(t->right);
	return 1 + (l > r ? l : r);
}

static long sum(const struct node *t)
{
	return t ? t->key + sum(t->left) + sum(t->right) : 0;
}

static void quicksort(long *v, long lo, long hi)
{
	if (lo >= hi)
		return;
	long p = v[(lo + hi) / 2], i = lo, j = hi;
	while (i <= j) {
		while (v[i] < p)
			i++;
		while (v[j] > p)
			j--;
		if (i <= j) {
			long t = v[i];
			v[i++] = v[j];
			v[j--] = t;
		}
	}
	quicksort(v, lo, j);
	quicksort(v, i, hi);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 8;
	int cols[32];
	printf("fib(%d) = %lu\n", n + 12, fib(n + 12));
	printf("even(%d) = %d\n", n * 1000, is_even(n * 1000));
	printf("queens(%d) = %u\n", n, queens(cols, 0, n));

	long count = 2000L * n;
	long *v = malloc(count * sizeof *v);
	unsigned long x = 12345;
	struct node *root = NULL;
	for (long i = 0; i < count; i++) {
		x = x * 6364136223846793005ul + 1442695040888963407ul;
		v[i] = (long)(x >> 33);
		root = insert(root, v[i]);
	}
	quicksort(v, 0, count - 1);
	printf("tree height %d, sum %ld, min %ld, max %ld\n", height(root), sum(root), v[0], v[count - 1]);
	return 0;
}
