# Sourced by the test-data scripts: every version they fetch, in one place,
# and the shell helpers they share (traced_env, newer_than). Versions come
# with the checksum of what was fetched, so that two runs build from the
# same bytes. Change a version here (and its checksum) and nowhere else.

# The SQLite amalgamation (SQLite 3.53.2) as the npm package better-sqlite3
# ships it, under package/deps/sqlite3/.
BETTER_SQLITE3_VERSION=12.11.1
BETTER_SQLITE3_SHA256=ebf0ed75a7a59dbcb3b24bbd014ef49d9f15bc328e4adcbf516f2a8fadfa2835

# fetch_sqlite DIR: puts sqlite3.c and sqlite3.h of the pinned package into
# DIR (once; the package is kept beside them). Fails when npm is missing,
# the registry cannot be reached or the package's checksum differs.
fetch_sqlite() {
	local dir=$1 tgz=$1/better-sqlite3-$BETTER_SQLITE3_VERSION.tgz
	[ -s "$dir/sqlite3.c" ] && [ -s "$dir/sqlite3.h" ] && return 0
	mkdir -p "$dir"
	if [ ! -s "$tgz" ]; then
		command -v npm >/dev/null || return 1
		(cd "$dir" && npm pack --silent "better-sqlite3@$BETTER_SQLITE3_VERSION" >/dev/null) || return 1
	fi
	if ! echo "$BETTER_SQLITE3_SHA256  $tgz" | sha256sum -c --quiet; then
		echo "fetch_sqlite: $tgz does not have the pinned checksum" >&2
		rm -f "$tgz"
		return 1
	fi
	tar -xzf "$tgz" -C "$dir" --strip-components=3 package/deps/sqlite3/sqlite3.c package/deps/sqlite3/sqlite3.h
}

# traced_env: the environment of every traced or profiled run, so that
# the stack (and with it the instructions run) is the same every time.
traced_env() {
	env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/nonexistent LC_ALL=C TZ=UTC TMPDIR=/tmp "$@"
}

# newer_than STAMP FILE...: true when STAMP is missing or older than a FILE.
newer_than() {
	local stamp=$1
	shift
	[ -e "$stamp" ] || return 0
	for f in "$@"; do
		[ "$f" -nt "$stamp" ] && return 0
	done
	return 1
}

# The Go toolchains 72-goversions.sh builds testdata/goversions with, from
# the Go module proxy (GOTOOLCHAIN; the go command checks each against the
# checksum database): the first release of the pclntab layout profgen
# reads (Go 1.20) and two later ones.
GO_TOOLCHAINS="go1.20.14 go1.22.12 go1.24.4"
