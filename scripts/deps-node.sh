#!/bin/sh
# deps-node.sh - the npm packages the tests load trace_analyze's outputs
# with, into build/node (no root needed): DuckDB's Node package, which
# reads --format ndjson and csv files as a fleet's tables. The tests that
# need it skip, saying so, without it. Network: the npm registry.
set -eu
cd "$(dirname "$0")/.."
dir=build/node
version=1.5.6-r.1
if [ -f "$dir/node_modules/@duckdb/node-api/package.json" ] &&
   grep -q "\"version\": \"$version\"" "$dir/node_modules/@duckdb/node-api/package.json"; then
	echo "deps-node.sh: @duckdb/node-api $version present"
	exit 0
fi
if ! command -v npm > /dev/null; then
	echo "deps-node.sh: no npm: the DuckDB tests will skip" >&2
	exit 0
fi
mkdir -p "$dir"
[ -f "$dir/package.json" ] || echo '{ "private": true }' > "$dir/package.json"
npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "@duckdb/node-api@$version"
