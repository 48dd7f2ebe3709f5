/*
 * sqlbench: a SQL workload on the SQLite amalgamation (built at test-data
 * time, never committed: scripts/testdata.d/20-lbr.sh), the large program
 * of the profile tests. An in-memory database gets N orders over a few
 * hundred customers and products (deterministic pseudo-random data), then
 * indexes, joins, grouping, sorting, LIKE, updates, deletes and a
 * recursive CTE.
 *
 * usage: sqlbench [N]    orders (default 2000)
 */
#include <stdio.h>
#include <stdlib.h>

#include "sqlite3.h"

static sqlite3 *db;

static void check(int rc, const char *what)
{
	if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
		fprintf(stderr, "sqlbench: %s: %s\n", what, sqlite3_errmsg(db));
		exit(1);
	}
}

static void exec(const char *sql)
{
	char *err = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
		fprintf(stderr, "sqlbench: %s: %s\n", sql, err);
		exit(1);
	}
}

/* query runs sql and folds every column of every row into a checksum. */
static unsigned long query(const char *sql)
{
	sqlite3_stmt *st;
	unsigned long sum = 0;
	check(sqlite3_prepare_v2(db, sql, -1, &st, NULL), sql);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		for (int i = 0; i < sqlite3_column_count(st); i++) {
			const unsigned char *t = sqlite3_column_text(st, i);
			for (; t && *t; t++)
				sum = sum * 31 + *t;
		}
	}
	check(rc, sql);
	sqlite3_finalize(st);
	return sum;
}

static unsigned long long rng = 88172645463325252ull;

static unsigned next(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static const char *words[] = {"red", "green", "blue", "steel", "paper", "glass", "oak", "linen", "stone", "wool"};

static void load(int orders)
{
	exec("CREATE TABLE customer(id INTEGER PRIMARY KEY, name TEXT, city TEXT, score REAL);"
	     "CREATE TABLE product(id INTEGER PRIMARY KEY, label TEXT, price REAL);"
	     "CREATE TABLE orders(id INTEGER PRIMARY KEY, customer INT, product INT, qty INT, note TEXT);");
	sqlite3_stmt *st;
	char buf[64];
	exec("BEGIN");
	check(sqlite3_prepare_v2(db, "INSERT INTO customer VALUES(?,?,?,?)", -1, &st, NULL), "customer");
	for (int i = 1; i <= 300; i++) {
		snprintf(buf, sizeof buf, "customer-%d-%s", i, words[next(10)]);
		sqlite3_bind_int(st, 1, i);
		sqlite3_bind_text(st, 2, buf, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 3, words[next(10)], -1, SQLITE_STATIC);
		sqlite3_bind_double(st, 4, next(10000) / 100.0);
		check(sqlite3_step(st), "insert customer");
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	check(sqlite3_prepare_v2(db, "INSERT INTO product VALUES(?,?,?)", -1, &st, NULL), "product");
	for (int i = 1; i <= 200; i++) {
		snprintf(buf, sizeof buf, "%s %s %d", words[next(10)], words[next(10)], i);
		sqlite3_bind_int(st, 1, i);
		sqlite3_bind_text(st, 2, buf, -1, SQLITE_TRANSIENT);
		sqlite3_bind_double(st, 3, 1 + next(50000) / 100.0);
		check(sqlite3_step(st), "insert product");
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	check(sqlite3_prepare_v2(db, "INSERT INTO orders VALUES(NULL,?,?,?,?)", -1, &st, NULL), "orders");
	for (int i = 0; i < orders; i++) {
		snprintf(buf, sizeof buf, "note %u %s", next(100000), words[next(10)]);
		sqlite3_bind_int(st, 1, 1 + next(300));
		sqlite3_bind_int(st, 2, 1 + next(200));
		sqlite3_bind_int(st, 3, 1 + next(20));
		sqlite3_bind_text(st, 4, buf, -1, SQLITE_TRANSIENT);
		check(sqlite3_step(st), "insert order");
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	exec("COMMIT");
}

static const char *queries[] = {
	"SELECT c.city, count(*), sum(o.qty * p.price) FROM orders o JOIN customer c ON c.id = o.customer"
	" JOIN product p ON p.id = o.product GROUP BY c.city ORDER BY 3 DESC",
	"SELECT name, score FROM customer WHERE score > 50 ORDER BY score DESC, name LIMIT 20",
	"SELECT p.label, avg(o.qty) FROM product p LEFT JOIN orders o ON o.product = p.id"
	" GROUP BY p.id HAVING count(o.id) > 3 ORDER BY 2 DESC LIMIT 15",
	"SELECT count(*) FROM orders WHERE note LIKE '%oak%' OR note LIKE '%7 red'",
	"SELECT upper(substr(name, 1, 12)) || '/' || lower(city), length(name) FROM customer ORDER BY 1",
	"WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 2000)"
	" SELECT sum(x * x) % 1000003, group_concat(x % 7, '') FROM n",
	"SELECT customer, max(qty), min(qty), total(qty) FROM orders GROUP BY customer ORDER BY 4 DESC LIMIT 10",
	"SELECT o.id FROM orders o WHERE o.product IN (SELECT id FROM product WHERE price > 300)"
	" AND o.customer IN (SELECT id FROM customer WHERE city IN ('oak', 'steel')) ORDER BY o.id DESC LIMIT 50",
};

int main(int argc, char **argv)
{
	int orders = argc > 1 ? atoi(argv[1]) : 2000;
	check(sqlite3_open(":memory:", &db), "open");
	load(orders);
	unsigned long sum = 0;
	for (unsigned i = 0; i < sizeof queries / sizeof *queries; i++)
		sum ^= query(queries[i]);
	exec("CREATE INDEX orders_customer ON orders(customer);"
	     "CREATE INDEX orders_product ON orders(product, qty);"
	     "CREATE INDEX customer_city ON customer(city, score)");
	for (unsigned i = 0; i < sizeof queries / sizeof *queries; i++)
		sum ^= query(queries[i]);
	exec("UPDATE orders SET qty = qty + 1 WHERE customer % 3 = 0;"
	     "DELETE FROM orders WHERE qty > 18;"
	     "UPDATE customer SET score = score * 1.1 WHERE city = 'oak'");
	sum ^= query(queries[0]);
	exec("CREATE VIRTUAL TABLE notes USING fts5(body);"
	     "INSERT INTO notes SELECT note || ' ' || p.label FROM orders JOIN product p ON p.id = orders.product");
	sum ^= query("SELECT count(*), sum(length(body)) FROM notes WHERE notes MATCH 'oak OR (red AND glass)'");
	sum ^= query("SELECT json_group_array(json_object('c', city, 'n', n)) FROM"
		     " (SELECT city, count(*) AS n FROM customer GROUP BY city)");
	sum ^= query("PRAGMA integrity_check");
	printf("checksum %lu\n", sum);
	sqlite3_close(db);
	return 0;
}
