#!/bin/sh
# make-completion.sh [TRACE_ANALYZE] - write the bash completion of
# trace_analyze, from its option tables (each command's --completion-helper
# lists its options: "-s --long KIND [VALUES]"), to standard output.
# data/completion/trace_analyze is its output, committed; a test makes it
# again and compares, so that it never lags behind the tables.
set -eu
ta=${1:-./trace_analyze}
commands="diff record top check snapshot"

# words CMD: the options of CMD ("" the bare command), one line
words() {
	# shellcheck disable=SC2086
	$ta $1 --completion-helper |
		awk '{ if ($1 != "-") printf "%s ", $1; printf "%s ", $2 }' | sed 's/ $//'
}

# cases CMD: the case arms for the values of CMD's options
cases() {
	# shellcheck disable=SC2086
	$ta $1 --completion-helper | awk '
		{ names = ($1 != "-") ? $1 "|" $2 : $2 }
		$3 == "choice" { gsub(",", " ", $4); printf "\t\t%s) COMPREPLY=($(compgen -W \"%s\" -- \"$cur\")); return ;;\n", names, $4 }
		$3 == "file" { printf "\t\t%s) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n", names }
		$3 == "number" || $3 == "text" { printf "\t\t%s) return ;;\n", names }'
}

cat << 'EOF'
# bash completion for trace_analyze(1): the commands, their options and the
# values the options take. Made by scripts/make-completion.sh from the
# program's option tables; do not edit by hand.

_trace_analyze_values() {	# the values of option $prev of command $1
	local cur=$2 prev=$3
	case "$1" in
EOF
for c in "" $commands; do
	printf '\t%s)\n\t\tcase "$prev" in\n' "${c:-bare}"
	cases "$c"
	printf '\t\tesac ;;\n'
done
cat << 'EOF'
	esac
	return 1
}

_trace_analyze() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd=bare i opts
	for ((i = 1; i < COMP_CWORD; i++)); do
		case "${COMP_WORDS[i]}" in
		diff | record | top | check | snapshot) cmd=${COMP_WORDS[i]}; break ;;
		-*) ;;
		*) break ;;
		esac
	done
	COMPREPLY=()
	_trace_analyze_values "$cmd" "$cur" "$prev" && return
	[ ${#COMPREPLY[@]} -gt 0 ] && return
	case "$cmd" in
EOF
for c in "" $commands; do
	printf '\t%s) opts="%s" ;;\n' "${c:-bare}" "$(words "$c")"
done
cat << 'EOF'
	esac
	if [[ "$cur" == -* ]]; then
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
	elif [ "$cmd" = bare ] && [ "$COMP_CWORD" -eq 1 ]; then
		COMPREPLY=($(compgen -W "diff record top check snapshot $opts" -- "$cur"))
	elif [ "$cmd" = record ]; then
		COMPREPLY=($(compgen -c -- "$cur"))
	else
		COMPREPLY=($(compgen -f -- "$cur"))
	fi
}

complete -o filenames -F _trace_analyze trace_analyze
EOF
