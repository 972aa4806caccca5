# SPDX-License-Identifier: GPL-2.0
#
# bash completion for tracebuf(1) and its old names (tracebuf-record,
# tracebuf-bpf, tracebufctl, tbconv, tbdecode, tb-workload).
#
# What to offer comes from the tool's own option tables, the ones its
# parser reads: `tracebuf __complete CWORD WORDS...` prints the words,
# or "@files PREFIX" where a file is expected, or "@command N" where the
# traced command begins (record, bpf).  Installed as
# .../bash-completion/completions/tracebuf, with a link for each old name.

_tracebuf()
{
	local cur=${COMP_WORDS[COMP_CWORD]} line files=0 prefix="" cmd=""

	COMPREPLY=()
	while IFS= read -r line; do
		case $line in
		"@files "*) files=1 prefix=${line#@files } ;;
		"@command "*) cmd=${line#@command } ;;
		*) COMPREPLY+=("$line") ;;
		esac
	done < <("${COMP_WORDS[0]}" __complete "$COMP_CWORD" "${COMP_WORDS[@]}" 2>/dev/null)
	if [ -n "$cmd" ]; then
		# The traced command's own completion, as sudo's and time's.
		if declare -F _command_offset >/dev/null; then
			_command_offset "$cmd"
		elif [ "$cmd" = "$COMP_CWORD" ]; then
			mapfile -t COMPREPLY < <(compgen -c -- "$cur")
		else
			mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		fi
		return 0
	fi
	if [ "$files" = 1 ]; then
		mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -- "$prefix")
		compopt -o filenames 2>/dev/null
	fi
	return 0
}

complete -F _tracebuf tracebuf tracebuf-record tracebuf-bpf tracebufctl \
	tbconv tbdecode tb-workload
