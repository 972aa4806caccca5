# SPDX-License-Identifier: GPL-2.0
#
# bash completion for tracebuf(1): subcommands, their commands
# (ctl/fdr), conversions and workloads, options, and files.
#
# Everything it offers is read from the tool's own --help at completion
# time, so a new option or subcommand completes without touching this
# file.  Installed as .../bash-completion/completions/tracebuf.

# _tracebuf_words TEXT SECTION...: the words listed under "SECTION:"
# (two spaces, then the word; "a | b" lists both).
_tracebuf_words()
{
	local text=$1
	shift
	local sec
	for sec in "$@"; do
		printf '%s\n' "$text" | awk -v sec="$sec:" '
			$0 == sec { on = 1; next }
			on && /^$/ { on = 0 }
			on && /^  [a-z]/ {
				print $1
				if ($2 == "|") print $3
			}'
	done
}

# _tracebuf_opts TEXT: the options a --help text defines (as the man page
# test reads them: at the start of a line, or after "[", "|", "(", ",",
# ";" or ":").
_tracebuf_opts()
{
	printf '%s\n' "$1" |
		grep -oE '(^|[[|(,;:]) *--?[A-Za-z][A-Za-z0-9-]*' |
		grep -oE -- '--?[A-Za-z][A-Za-z0-9-]*' | sort -u
}

# _tracebuf_takes TEXT OPTION METAVAR-RE: does OPTION take an argument
# named like METAVAR-RE ("-o, --output FILE", "--map=FILE", "[-d DEVICE]")?
_tracebuf_takes()
{
	printf '%s\n' "$1" |
		grep -qE -- "(^|[[ ,])$2([ =]|, --[a-z-]+[ =])($3)"
}

_tracebuf()
{
	local cur=${COMP_WORDS[COMP_CWORD]}
	local prev=${COMP_WORDS[COMP_CWORD-1]}
	local tool=${COMP_WORDS[0]}
	local sub="" help i w pos=0 after_dashes=0

	COMPREPLY=()
	# The subcommand: the first word after the command that is not an option.
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*) ;;
		*) sub=${COMP_WORDS[i]}; break ;;
		esac
	done
	if [ -z "$sub" ]; then
		help=$("$tool" --help 2>/dev/null)
		if [[ $cur == -* ]]; then
			mapfile -t COMPREPLY < <(compgen -W "$(_tracebuf_opts "$help")" -- "$cur")
		else
			mapfile -t COMPREPLY < <(compgen -W "help $(_tracebuf_words "$help" Subcommands)" -- "$cur")
		fi
		return 0
	fi
	if [ "$sub" = help ]; then
		help=$("$tool" --help 2>/dev/null)
		mapfile -t COMPREPLY < <(compgen -W "$(_tracebuf_words "$help" Subcommands)" -- "$cur")
		return 0
	fi

	help=$("$tool" "$sub" --help 2>/dev/null) || return 0
	# record and bpf trace a command: after "--" or their first word,
	# complete that command's words.
	for ((i = i + 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		if [ "$w" = -- ]; then
			after_dashes=1
			i=$((i + 1))
			break
		fi
		case $w in
		-*) ;;
		*)
			if [[ ${COMP_WORDS[i-1]} != -* ]] ||
			   ! _tracebuf_takes "$help" "${COMP_WORDS[i-1]}" '[A-Z]'; then
				pos=$((pos + 1))
				[ "$pos" = 1 ] && [ -n "$(_tracebuf_words "$help" Commands Conversions Workloads)" ] && continue
				case $sub in record|bpf) after_dashes=1; break ;; esac
			fi
			;;
		esac
	done
	if [ "$after_dashes" = 1 ] && declare -F _command_offset >/dev/null; then
		_command_offset "$i"
		return 0
	fi

	if [[ $prev == -* ]] && _tracebuf_takes "$help" "$prev" 'FILE|PATH|DEVICE'; then
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		compopt -o filenames 2>/dev/null
		return 0
	fi
	if [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$(_tracebuf_opts "$help")" -- "$cur")
		return 0
	fi
	w=$(_tracebuf_words "$help" Commands Conversions Workloads)
	if [ "$pos" = 0 ] && [ -n "$w" ]; then
		mapfile -t COMPREPLY < <(compgen -W "$w" -- "$cur")
		return 0
	fi
	case $sub in
	record|bpf)
		mapfile -t COMPREPLY < <(compgen -c -- "$cur") ;;
	*)
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		compopt -o filenames 2>/dev/null ;;
	esac
	return 0
}

complete -F _tracebuf tracebuf
