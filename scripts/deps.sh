#!/bin/sh
# deps.sh - install the Debian packages trace_analyze needs to build, test
# and benchmark (run as root, or it uses sudo). Debian 12 (bookworm).
#   build: gcc make pkg-config libxxhash-dev libelf-dev libcairo2-dev
#          fonts-dejavu-core (the ringcharts' labels)
#          zlib1g-dev liblzma-dev libzstd-dev (compressed logs)
#          libtracefs-dev libtraceevent-dev (record, top) libncurses-dev (top)
#          libtracecmd-dev (trace.dat input)
#          libprotobuf-c-dev protobuf-c-compiler (--pprof: pprof's profile.proto)
#   tests: libcmocka-dev bats python3 jq clang (fuzzer) time, gzip xz-utils (and make
#          demo: data's kernel index is xz'd)
#          zstd (to make compressed logs), tmux (top in a real terminal),
#          chromium (the --html page loaded, driven and pictured headless),
#          trace-cmd and linux-perf (the text forms of the binary captures),
#          python3-jsonschema (every JSON output against data/schema/),
#          golang-go (go tool pprof reads --pprof's profile),
#          protobuf-compiler (protoc decodes --perfetto's trace with Perfetto's schema),
#          man-db (the man page rendered at 80 columns, no troff warning),
#          strace (which files a run opens),
#          prometheus (promtool checks --openmetrics; a real server scrapes it),
#          prometheus-node-exporter (its textfile collector reads the exporter's file), curl
set -eu
packages="gcc make pkg-config libxxhash-dev libelf-dev libcairo2-dev fonts-dejavu-core
	zlib1g-dev liblzma-dev libzstd-dev libtracefs-dev libtraceevent-dev libtracecmd-dev
	libncurses-dev libprotobuf-c-dev protobuf-c-compiler
	libcmocka-dev bats python3 jq clang time binutils gzip xz-utils zstd tmux chromium
	trace-cmd linux-perf python3-jsonschema golang-go protobuf-compiler man-db strace
	prometheus prometheus-node-exporter curl"
missing=""
for p in $packages; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
if [ -z "$missing" ]; then
	echo "deps.sh: all packages present"
	exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "deps.sh: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update
$sudo apt-get install -y --no-install-recommends $missing
