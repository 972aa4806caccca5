#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Documentation/NAME.rst to NAME.html with Debian's docutils.

Usage: scripts/build/rst2html.py IN.rst OUT.html

What rst2html does, halting on warnings, plus the one role the pages use
that plain docutils lacks: :doc:`fdr` (a Sphinx habit) becomes a link to
fdr.html next to the page.  The tools package installs the pages in
/usr/share/doc/tracebuf-tools/, where the man pages cite them.
"""
import sys

from docutils import nodes
from docutils.core import publish_file
from docutils.parsers.rst import roles


def doc_role(name, rawtext, text, lineno, inliner, options=None,
             content=None):
    target = text.strip()
    node = nodes.reference(rawtext, target + '.rst', refuri=target + '.html')
    return [node], []


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[2])
    roles.register_local_role('doc', doc_role)
    publish_file(source_path=sys.argv[1], destination_path=sys.argv[2],
                 writer_name='html',
                 settings_overrides={'halt_level': 2, 'report_level': 2,
                                     'embed_stylesheet': True})


if __name__ == '__main__':
    main()
