#!/usr/bin/env bats
# The command line: usage errors exit 2 with a usage line; --help and
# --version exit 0; every -o key sorts as documented.

load ../lib/helpers

setup() {
	cd "$BATS_TEST_TMPDIR"
}

usage_error() {	# EXPECTED-FIRST-LINE: after `run`, check exit 2 and the usage lines
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "$1" ]
	[[ "${lines[1]}" == usage:* ]]
	[[ "${lines[-1]}" == "Try 'trace_analyze --help' for more information." ]]
}

@test "--help lists every option and exits 0" {
	run "$TA" --help
	[ "$status" -eq 0 ]
	for opt in --file --kernel --system-map --account-file --order-by --malloc --cache \
		--group-by --threads --quiet --help --version --start-branch --callers-file \
		--rings-file --rings-attr --rings-show --save-index --format --folded --folded-pages \
		--flame --weight --wrappers --user-frames --page-size; do
		[[ "$output" == *"$opt"* ]] || { echo "missing $opt"; return 1; }
	done
	[[ "$output" == *"trace_analyze diff OLD NEW"* ]]
	[[ "$output" == *"trace_analyze check FILE..."* ]]
}

@test "a misspelt long option gets a did-you-mean, in every subcommand" {
	run "$TA" -f "$FIX/trace-pipe-6.18.log" --acount-file a.txt
	usage_error "trace_analyze: error: unknown option '--acount-file' (did you mean '--account-file'?)"
	run "$TA" -f "$FIX/trace-pipe-6.18.log" --outstandnig=x.txt
	usage_error "trace_analyze: error: unknown option '--outstandnig=x.txt' (did you mean '--outstanding'?)"
	run "$TA" --mallco
	usage_error "trace_analyze: error: unknown option '--mallco' (did you mean '--malloc'?)"
	run "$TA" --zzzzzz
	usage_error "trace_analyze: error: unknown option '--zzzzzz'"
	run "$TA" diff --fail-abvoe 5% a b
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: unknown option '--fail-abvoe' (did you mean '--fail-above'?)" ]
	run "$TA" check --quite x.db
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: unknown option '--quite' (did you mean '--quiet'?)" ]
}

@test "a chart named for a format it cannot be written in is a usage error" {
	run "$TA" -f "$FIX/trace-pipe-6.18.log" --flame flame.gif
	usage_error "trace_analyze: error: --flame 'flame.gif': a chart is written as .png, .svg or .pdf: name it so"
	[ ! -e flame.gif ]
	run "$TA" -k "$BATS_TEST_TMPDIR" -r rings.jpg
	usage_error "trace_analyze: error: -r 'rings.jpg': a chart is written as .png, .svg or .pdf: name it so"
	run "$TA" diff -r delta -k "$BATS_TEST_TMPDIR" a.log b.log
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: -r 'delta': a chart is written as .png, .svg or .pdf: name it so" ]
}

@test "--version prints the version and exits 0" {
	run "$TA" --version
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^trace_analyze\ [0-9]+\.[0-9]+ ]]
}

@test "usage errors exit 2 with a message and the usage line" {
	run "$TA" --bogus
	usage_error "trace_analyze: error: unknown option '--bogus'"
	run "$TA" -f "$FIX/trace-pipe-6.18.log" -o bogus
	usage_error "trace_analyze: error: unknown --order-by key 'bogus' (total_dynamic, current_dynamic, alloc_count, free_count, waste, frag, hit, bytes, pingpong, peak, total_waste)"
	run "$TA" -f
	usage_error "trace_analyze: error: option '-f' needs a value"
	run "$TA" -f "$FIX/trace-pipe-6.18.log" --malloc --cache
	usage_error "trace_analyze: error: --malloc and --cache exclude each other"
	run "$TA" -c -
	usage_error "trace_analyze: error: no log to read: give one with -f LOG ('-' for standard input), or a kernel tree with -k DIR for its static footprint"
	run "$TA" -f "$FIX/trace-pipe-6.18.log" extra
	usage_error "trace_analyze: error: unexpected argument 'extra': the log is -f '$FIX/trace-pipe-6.18.log' already (one log at a time)"
	run "$TA" -f "$FIX/trace-pipe-6.18.log" --group-by line
	usage_error "trace_analyze: error: unknown --group-by value 'line' (callsite, function, origin, cache, dir, size-class, comm, pid, gfp, module, file, cgroup)"
	run "$TA" -f "$FIX/trace-pipe-6.18.log" --weight heavy --folded -
	usage_error "trace_analyze: error: unknown --weight 'heavy' (bytes, live, waste, count)"
	run "$TA" -f "$FIX/trace-pipe-6.18.log" --weight live -c -
	usage_error "trace_analyze: error: --weight says what --folded and --flame weigh: give one of them"
	run "$TA" -f "$FIX/trace-pipe-6.18.log" --folded-pages - --page-size 3000
	usage_error "trace_analyze: error: --page-size wants a power of two from 512 to 1 GiB in bytes, not '3000'"
	run "$TA" -f "$FIX/trace-pipe-6.18.log" --page-size 8192 -c -
	usage_error "trace_analyze: error: --page-size sizes --folded-pages: give that too"
	run "$TA" -k "$FIX" --folded -
	usage_error "trace_analyze: error: --folded, --folded-pages, --flame, --pprof and --group-by origin need a log (-f LOG or --db-file DB)"
	run "$TA" -f "$FIX/trace-pipe-6.18.log" --threads lots
	usage_error "trace_analyze: error: --threads wants a number from 0 to 64, not 'lots'"
}

# rows LOG [options...]: "caller net total alloc free waste" per account row
rows() {
	local log="$1"; shift
	"$TA" -q -f "$FIX/$log" -c - "$@" | awk 'NR > 9 { split($4, af, "/"); print $5, $3, $1, af[1], af[2], $2 }'
}

@test "-o sorts by each key, descending, ties by caller name" {
	# trace-pipe-6.18: the default (current_dynamic) puts the 192-byte pair
	# alloc_empty_file/prepare_creds together, by name
	run rows trace-pipe-6.18.log
	[ "${lines[0]}" = "load_elf_phdrs+0x49 1536 1536 2 0 304" ]
	[ "${lines[1]}" = "alloc_empty_file+0x3c 192 192 1 0 8" ]
	[ "${lines[2]}" = "prepare_creds+0x1c 192 192 1 0 8" ]
	run rows trace-pipe-6.18.log -o total_dynamic
	[ "${lines[0]}" = "getname_kernel+0x25 0 4096 1 1 0" ]
	[ "${lines[1]}" = "load_elf_phdrs+0x49 1536 1536 2 0 304" ]
	run rows trace-pipe-6.18.log -o alloc_count
	[ "${lines[0]}" = "load_elf_phdrs+0x49 1536 1536 2 0 304" ]
	[ "${lines[1]}" = "__anon_vma_prepare+0x11f 104 104 1 0 8" ]
	run rows trace-pipe-6.18.log -o free_count
	[ "${lines[0]}" = "getname_kernel+0x25 0 4096 1 1 0" ]
	[ "${lines[1]}" = "load_elf_binary+0xf6 0 32 1 1 0" ]
	run rows trace-pipe-6.18.log -o waste
	[ "${lines[0]}" = "load_elf_phdrs+0x49 1536 1536 2 0 304" ]
	[ "${lines[4]}" = "lsm_blob_alloc+0x3b 16 16 1 0 5" ]
}

@test "--group-by function merges the offsets of one function" {
	# load_elf_binary+0xf6 (32, freed) and +0x1e9 (64, live) become one row
	run rows trace-pipe-6.18.log --group-by function
	[ "$status" -eq 0 ]
	printf '%s\n' "${lines[@]}" | grep -qx "load_elf_binary 64 96 2 1 0"
	[ "${#lines[@]}" -eq 8 ]
}

@test "-q keeps standard error quiet; the summary goes to standard error only" {
	run "$TA" -q -f "$FIX/trace-pipe-6.18.log" -c /dev/null
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	"$TA" -f "$FIX/trace-pipe-6.18.log" -c - 2> /dev/null | diff_or_fail "$FIX/trace-pipe-6.18.account" -
}

@test "make install puts the binary and the man page under PREFIX" {
	command -v make > /dev/null || skip "no make"
	[ -f "$TOP/man/trace_analyze.1" ] || skip "no man page yet"
	make -C "$TOP" -s install PREFIX="$BATS_TEST_TMPDIR/prefix" > /dev/null
	[ -x "$BATS_TEST_TMPDIR/prefix/bin/trace_analyze" ]
	[ -f "$BATS_TEST_TMPDIR/prefix/share/man/man1/trace_analyze.1" ]
	[ -f "$BATS_TEST_TMPDIR/prefix/share/bash-completion/completions/trace_analyze" ]
	"$BATS_TEST_TMPDIR/prefix/bin/trace_analyze" --version
}

# One table per command declares each option once: --help, the man page and
# the completion come from it or are checked against it.
@test "every option of every command is in its --help, the man page's synopsis and section, the completion" {
	run python3 "$TOP/tests/tools/check_option_docs.py" "$TA" "$TOP/man/trace_analyze.1" \
		"$TOP/data/completion/trace_analyze"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "the shipped completion is the one the option tables make" {
	"$TOP/scripts/make-completion.sh" "$TA" > completion
	diff -u "$TOP/data/completion/trace_analyze" completion
}

# complete WORDS...: what bash offers for the last word, as a user pressing TAB
complete_words() {
	bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _trace_analyze
		printf "%s\n" "${COMPREPLY[@]}"' _ "$TOP/data/completion/trace_analyze" "$@"
}

@test "bash completion: commands, each command's options, an option's values" {
	run complete_words trace_analyze re
	[ "$output" = "record" ]
	run complete_words trace_analyze diff --fa
	[ "$output" = "--fail-above" ]
	run complete_words trace_analyze top --group-by c
	[ "$(sort <<< "$output" | tr '\n' ' ')" = "cache callsite " ]
	run complete_words trace_analyze --format j
	[ "$output" = "json" ]
	run complete_words trace_analyze record --stac
	[ "$output" = "--stacks" ]
	run complete_words trace_analyze record --sta
	[ "$(sort <<< "$output" | tr '\n' ' ')" = "--stacks --start-branch --stats " ]	# the analysis' too
	run complete_words trace_analyze check --q
	[ "$output" = "--quiet" ]
}

@test "shared options mean the same in every command: -q, --format, --threads, -k" {
	run "$TA" diff -q --threads lots a b
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: --threads wants a number from 0 to 64, not 'lots'" ]
	run "$TA" record --threads lots
	[ "${lines[0]}" = "trace_analyze: error: --threads wants a number from 0 to 64, not 'lots'" ]
	run "$TA" top --format xml
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: unknown --format 'xml' (text, csv, json, ndjson)" ]
	run "$TA" diff --format xml a b
	[ "${lines[0]}" = "trace_analyze: error: unknown --format 'xml' (text, csv, json, ndjson)" ]
	run "$TA" -f x --format xml
	[ "${lines[0]}" = "trace_analyze: error: unknown --format 'xml' (text, csv, json, ndjson)" ]
	# diff -q: a run that fails its gate says nothing of it, and exits 3
	head -n 5 "$FIX/trace-pipe-6.18.log" > old.log
	run "$TA" diff --fail-above 0 old.log "$FIX/trace-pipe-6.18.log" -c /dev/null
	[ "$status" -eq 3 ]
	[[ "$output" == "trace_analyze: diff: current_dynamic grew by "* ]]
	run "$TA" diff -q --fail-above 0 old.log "$FIX/trace-pipe-6.18.log" -c /dev/null
	[ "$status" -eq 3 ]
	[ -z "$output" ]
}

@test "-o is --order-by in the bare command and diff, record's log in record: both --help say so" {
	run "$TA" --help
	grep -q -- '-o, --order-by KEY' <<< "$output"
	run "$TA" record --help
	grep -q -- '-o, --output LOG' <<< "$output"
	grep -q -- '--order-by KEY' <<< "$output"
	[[ "$(tr -s '\n ' '  ' <<< "$output")" == *"(-o is the sort key in the bare command; here it is the log, as in perf record)"* ]]
	! grep -q -- '-o, --order-by' <<< "$output"
}

@test "includes point down the stages only (docs/HACKING.md)" {
	run python3 "$TOP/tests/tools/check_layers.py" "$TOP"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "the layer check finds a header that includes itself through another" {
	mkdir -p "$BATS_TEST_TMPDIR/t/include" "$BATS_TEST_TMPDIR/t/src/base"
	printf '#include "b.h"\n' > "$BATS_TEST_TMPDIR/t/include/a.h"
	printf '#include "a.h"\n' > "$BATS_TEST_TMPDIR/t/include/b.h"
	: > "$BATS_TEST_TMPDIR/t/src/base/a.c"
	: > "$BATS_TEST_TMPDIR/t/src/base/b.c"
	run python3 "$TOP/tests/tools/check_layers.py" "$BATS_TEST_TMPDIR/t"
	[ "$status" -eq 1 ]
	[ "$output" = "include circle: a.h -> b.h -> a.h" ]
}

@test "no circle of files that call each other (read off the built objects)" {
	[ -f "$TOP/build/obj/cmd/main.o" ] || skip "not built (make check builds it)"
	run python3 "$TOP/tests/tools/check_cycles.py" "$TOP/build/obj"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *": no circle" ]]
}

@test "first steps: a bare LOG is -f LOG, -f DB is --db-file, a missing directory or a non-tree at once" {
	local log="$FIX/trace-pipe-6.18.log"
	cd "$BATS_TEST_TMPDIR"
	"$TA" -q -f "$log" -c with-f.txt --save-db kmem.db
	"$TA" -q "$log" -c bare.txt
	diff with-f.txt bare.txt
	run "$TA" "$log" other.log
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: unexpected argument 'other.log': one log at a time (-f LOG)" ]
	# a DB given to -f (any name): known by its magic, read as --db-file
	cp kmem.db kmem.log
	"$TA" -q -f kmem.log -c from-db.txt
	"$TA" -q --db-file kmem.db -c from-db-file.txt
	diff from-db.txt from-db-file.txt
	run "$TA" -q -f kmem.db --save-db again.db
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: --save-db saves the events of a log: 'kmem.db' is a DB file already" ]
	# the summary alone ends with the reports the log can give
	run "$TA" -f "$log"
	[ "$status" -eq 0 ]
	[[ "${lines[-1]}" == "trace_analyze: this log also gives: -c FILE (who allocates), --stats, "* ]]
	run "$TA" -f "$log" -c /dev/null
	! grep -q 'this log also gives' <<< "$output" || false
	# an output in no directory: refused before the log is read (a pipe that never ends)
	run timeout 10 "$TA" -f - -c no/such/dir/account.txt < /dev/zero
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: cannot write 'no/such/dir/account.txt': No such file or directory" ]
	# -k DIR with neither System.map, vmlinux nor Linux's Makefile is no kernel tree
	mkdir notatree
	run "$TA" -k notatree -f "$log" -c /dev/null
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'notatree' is not a kernel tree: its top has no System.map, vmlinux or Linux Makefile (VERSION =, PATCHLEVEL =)" ]
	# a kernel's source, not built: no symbols to resolve the log's call sites with
	printf 'VERSION = 6\nPATCHLEVEL = 1\n' > notatree/Makefile
	run "$TA" -k notatree -f "$log" -c /dev/null
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: kernel tree 'notatree' has neither System.map nor vmlinux: is it a built kernel tree?" ]
}

# the --group-by keys a command's --help names, from its "WHAT: a, b, c" list
help_group_keys() {
	"$TA" "$@" --help | awk 'on && /^ +(-[a-zA-Z], )?--[a-z]/ && !/^ +--group-by/ { exit } /--group-by WHAT/ { on = 1 } on { print }' |
		tr '\n' ' ' | sed -n 's/.*; *WHAT: \([a-z, -]*\).*/\1/p' | tr -d ' ' | tr ',' '\n' | sed '/^$/d'
}

@test "--group-by: every command takes every key its help shows, and its help shows no other" {
	local cmd key out
	for cmd in "" diff top; do
		[ -n "$(help_group_keys $cmd)" ] || { echo "no keys in '$cmd --help'"; return 1; }
		for key in callsite function origin cache dir size-class comm pid gfp module; do
			# a key is refused as "unknown" before anything runs: no log, no root needed
			out=$("$TA" $cmd --group-by "$key" --no-such-option 2>&1 || true)
			if help_group_keys $cmd | grep -qx -- "$key"; then
				[[ "$out" != *"unknown --group-by value"* ]] || { echo "$cmd refuses $key: $out"; return 1; }
			else
				[[ "$out" == *"unknown --group-by value '$key'"* ]] || { echo "$cmd takes $key, its help does not say: $out"; return 1; }
			fi
		done
	done
	# and the description says nothing of the keys top does not take
	! "$TA" top --help | grep -q 'gfp_flags (gfp)\|size class of bytes_alloc' || false
}
