#! /usr/bin/env python3
# vswitch-doc.py: tools for the vswitch database schema and its documentation.
#
# Licensed under the Apache License, Version 2.0 (see LICENSE).
#
#   vswitch-doc.py man XML SCHEMA VERSION
#       prints the ovs-vswitchd.conf.db(5) man page (troff, man macros)
#       built from the documentation XML and the schema.
#   vswitch-doc.py coverage XML SCHEMA
#       checks that the XML documents exactly the tables and columns of the
#       schema, and that every configuration key says its type, default and
#       whether it needs a restart.
#   vswitch-doc.py cksum SCHEMA
#       checks that the schema's "cksum" member is the POSIX cksum(1) of the
#       schema text without the line that holds it (as ovsdb-tool expects);
#       with --print, prints the value it should have.
#   vswitch-doc.py compare REFERENCE SCHEMA
#       checks that every table and column of REFERENCE exists in SCHEMA with
#       the same type, constraints and table options (types compared after
#       expanding the short forms the OVSDB schema language allows).
#   vswitch-doc.py compat XML SCHEMA
#       prints the columns and keys that the XML marks compat="yes" as a C
#       list of VSWITCH_COMPAT(TABLE, LABEL, COLUMN, KEY, DEFAULT) lines,
#       for ovs-vswitchd's warnings about settings it does not act on (see
#       "Settings accepted for compatibility" in vswitchd/bridge.c).
#
# Only the Python standard library is used.  Exit status: 0 on success, 1 if
# a check fails (with one line per problem on stderr), 2 on bad usage.

import json
import re
import sys
import textwrap
import xml.etree.ElementTree as ET

CKSUM_LINE = re.compile(r'^\s*"cksum": *"[0-9]+ [0-9]+",\s*$')


# ---------------------------------------------------------------- cksum ---

def posix_cksum(data):
    """The checksum cksum(1) prints for 'data' (bytes): CRC-32 with the
    polynomial 0x04C11DB7, most significant bit first, over the data and
    then its length (least significant byte first, no trailing zeros),
    complemented."""
    crc = 0
    table = _cksum_table()

    def feed(byte):
        nonlocal crc
        crc = ((crc << 8) & 0xffffffff) ^ table[((crc >> 24) ^ byte) & 0xff]

    for byte in data:
        feed(byte)
    length = len(data)
    while length:
        feed(length & 0xff)
        length >>= 8
    return (~crc) & 0xffffffff


_CKSUM_TABLE = []


def _cksum_table():
    if not _CKSUM_TABLE:
        for i in range(256):
            c = i << 24
            for _ in range(8):
                c = ((c << 1) ^ 0x04C11DB7) if c & 0x80000000 else (c << 1)
                c &= 0xffffffff
            _CKSUM_TABLE.append(c)
    return _CKSUM_TABLE


def schema_cksum(path):
    """Returns (embedded, computed) checksum strings for the schema file."""
    with open(path, 'rb') as f:
        lines = f.read().decode('utf-8').splitlines(keepends=True)
    kept = [line for line in lines if not CKSUM_LINE.match(line)]
    body = ''.join(kept).encode('utf-8')
    computed = '%d %d' % (posix_cksum(body), len(body))
    embedded = json.loads(''.join(lines)).get('cksum')
    return embedded, computed


def cmd_cksum(args):
    show = '--print' in args
    args = [a for a in args if a != '--print']
    if len(args) != 1:
        usage()
    embedded, computed = schema_cksum(args[0])
    if show:
        print(computed)
        return 0
    if embedded != computed:
        err('%s: "cksum" is "%s" but the schema text gives "%s"'
            % (args[0], embedded, computed))
        return 1
    return 0


# ------------------------------------------------------ schema handling ---

def base_type(raw):
    """Expands a base type to a dict with every member present."""
    if isinstance(raw, str):
        raw = {'type': raw}
    base = {'type': raw['type']}
    for member in ('minInteger', 'maxInteger', 'minReal', 'maxReal',
                   'minLength', 'maxLength', 'refTable'):
        if member in raw:
            base[member] = raw[member]
    if 'refTable' in raw:
        base['refType'] = raw.get('refType', 'strong')
    if 'enum' in raw:
        enum = raw['enum']
        if isinstance(enum, list) and enum and enum[0] == 'set':
            enum = enum[1]
        else:
            enum = [enum]
        base['enum'] = sorted(enum, key=json.dumps)
    return base


def column_type(raw):
    """Expands a column type to {'key', 'value' (or None), 'min', 'max'}."""
    if isinstance(raw, str) or 'key' not in raw:
        raw = {'key': raw}
    return {'key': base_type(raw['key']),
            'value': base_type(raw['value']) if 'value' in raw else None,
            'min': raw.get('min', 1),
            'max': raw.get('max', 1)}


def column_info(raw):
    return {'type': column_type(raw['type']),
            'ephemeral': raw.get('ephemeral', False),
            'mutable': raw.get('mutable', True)}


def table_info(raw):
    return {'isRoot': raw.get('isRoot', False),
            'maxRows': raw.get('maxRows', 'unlimited'),
            'indexes': sorted(sorted(index)
                              for index in raw.get('indexes', []))}


def load_schema(path):
    with open(path, encoding='utf-8') as f:
        return json.load(f)


def describe(info):
    return json.dumps(info, sort_keys=True)


def cmd_compare(args):
    if len(args) != 2:
        usage()
    ref, ours = load_schema(args[0]), load_schema(args[1])
    problems = []
    for member in ('name', 'version'):
        if ref.get(member) != ours.get(member):
            problems.append('schema %s: reference %r, ours %r'
                            % (member, ref.get(member), ours.get(member)))
    for tname, rtable in ref['tables'].items():
        otable = ours['tables'].get(tname)
        if otable is None:
            problems.append('table %s: missing' % tname)
            continue
        if table_info(rtable) != table_info(otable):
            problems.append('table %s: options differ: reference %s, ours %s'
                            % (tname, table_info(rtable), table_info(otable)))
        for cname, rcol in rtable['columns'].items():
            ocol = otable['columns'].get(cname)
            if ocol is None:
                problems.append('column %s.%s: missing' % (tname, cname))
            elif column_info(rcol) != column_info(ocol):
                problems.append('column %s.%s: reference %s, ours %s'
                                % (tname, cname, describe(column_info(rcol)),
                                   describe(column_info(ocol))))
        for cname in otable['columns']:
            if cname not in rtable['columns']:
                problems.append('column %s.%s: not in the reference'
                                % (tname, cname))
    for tname in ours['tables']:
        if tname not in ref['tables']:
            problems.append('table %s: not in the reference' % tname)
    for problem in problems:
        err(problem)
    return 1 if problems else 0


# ---------------------------------------------------- documentation XML ---

CONFIG_COLUMNS = ('other_config', 'options')


def doc_columns(element):
    """Yields the <column> elements of a table, through its groups."""
    for child in element:
        if child.tag == 'column':
            yield child
        elif child.tag == 'group':
            yield from doc_columns(child)


def cmd_coverage(args):
    if len(args) != 2:
        usage()
    doc = ET.parse(args[0]).getroot()
    schema = load_schema(args[1])
    problems = []
    documented = [t.get('name') for t in doc.iter('table')]
    for tname in schema['tables']:
        if tname not in documented:
            problems.append('table %s: not documented' % tname)
    for table in doc.iter('table'):
        tname = table.get('name')
        if documented.count(tname) > 1:
            problems.append('table %s: documented more than once' % tname)
        stable = schema['tables'].get(tname)
        if stable is None:
            problems.append('table %s: documented but not in the schema'
                            % tname)
            continue
        names = []
        for column in doc_columns(table):
            cname = column.get('name')
            names.append(cname)
            scolumn = stable['columns'].get(cname)
            if scolumn is None:
                problems.append('column %s.%s: documented but not in the '
                                'schema' % (tname, cname))
                continue
            if names.count(cname) > 1:
                problems.append('column %s.%s: documented more than once'
                                % (tname, cname))
            if not ''.join(column.itertext()).strip():
                problems.append('column %s.%s: empty description'
                                % (tname, cname))
            keys = column.findall('key')
            if keys and column_type(scolumn['type'])['value'] is None:
                problems.append('column %s.%s: has <key>s but is not a map'
                                % (tname, cname))
            seen = set()
            for key in keys:
                kname = key.get('name')
                where = '%s.%s:%s' % (tname, cname, kname)
                if kname in seen:
                    problems.append('%s: documented more than once' % where)
                seen.add(kname)
                if cname in CONFIG_COLUMNS and key.get('compat') != 'yes':
                    for attr in ('type', 'default', 'restart'):
                        if key.get(attr) is None:
                            problems.append('%s: no "%s" attribute'
                                            % (where, attr))
                if key.get('restart') not in (None, 'yes', 'no'):
                    problems.append('%s: restart must be "yes" or "no"'
                                    % where)
        for cname in stable['columns']:
            if cname not in names:
                problems.append('column %s.%s: not documented'
                                % (tname, cname))
    for problem in problems:
        err(problem)
    return 1 if problems else 0


# ------------------------------------------------------- compat list ---

def label_column(stable):
    """The column that names a table's rows in messages: "name" or
    "target" if the table has such a string column, else None (the rows
    are then named by UUID, or by the table alone for a one-row table)."""
    if stable.get('maxRows') == 1:
        return None
    for cname in ('name', 'target'):
        scolumn = stable['columns'].get(cname)
        if scolumn is not None:
            ctype = column_type(scolumn['type'])
            if (ctype['key']['type'] == 'string' and ctype['value'] is None
                    and ctype['max'] == 1):
                return cname
    return None


def c_string(text):
    if text is None:
        return 'NULL'
    return '"%s"' % text.replace('\\', '\\\\').replace('"', '\\"')


def cmd_compat(args):
    """Lists the settings marked compat="yes", leaving out what an operator
    does not set: ephemeral columns (ovs-vswitchd's own status) and the
    column that names a table's rows (such a row is reported through the
    column that refers to it)."""
    if len(args) != 2:
        usage()
    doc = ET.parse(args[0]).getroot()
    schema = load_schema(args[1])
    lines = []
    for table in doc.iter('table'):
        tname = table.get('name')
        stable = schema['tables'].get(tname)
        if stable is None:
            err('table %s: documented but not in the schema' % tname)
            return 1
        label = label_column(stable)
        for column in doc_columns(table):
            cname = column.get('name')
            scolumn = stable['columns'].get(cname)
            if scolumn is None:
                err('column %s.%s: documented but not in the schema'
                    % (tname, cname))
                return 1
            if scolumn.get('ephemeral', False) or cname == label:
                continue
            entries = []
            if column.get('compat') == 'yes':
                entries.append((None, None))
            else:
                entries += [(key.get('name'), key.get('default'))
                            for key in column.findall('key')
                            if key.get('compat') == 'yes']
            for kname, default in entries:
                lines.append('VSWITCH_COMPAT(%s, %s, %s, %s, %s)'
                             % (c_string(tname), c_string(label),
                                c_string(cname), c_string(kname),
                                c_string(default)))
    print('/* Generated by "vswitch-doc.py compat" from vswitchd/vswitch.xml '
          'and\n'
          ' * vswitch.ovsschema: the settings ovs-vswitchd stores but does not '
          'act on\n'
          ' * yet.  Do not edit: remove compat="yes" from vswitch.xml instead. '
          '*/')
    for line in lines:
        print(line)
    return 0


# ------------------------------------------------------------- man page ---

def plural(word):
    if word.endswith('s'):
        return word + 'es'
    return word + 's'


def english_base(base, many=False):
    """Describes a base type in words: 'string', 'Bridge', 'integer, in
    range 0 to 4,095'.  'many' gives the plural noun."""
    if base['type'] == 'uuid' and 'refTable' in base:
        noun = base['refTable']
        noun = plural(noun) if many else noun
        if base['refType'] == 'weak':
            noun = 'weak reference%s to %s' % ('s' if many else '',
                                                base['refTable'])
        return noun
    noun = plural(base['type']) if many else base['type']
    constraints = []
    if 'enum' in base:
        values = [json.dumps(v) for v in base['enum']]
        if len(values) == 1:
            constraints.append('must be %s' % values[0])
        elif len(values) == 2:
            constraints.append('either %s or %s' % tuple(values))
        else:
            constraints.append('one of %s or %s'
                               % (', '.join(values[:-1]), values[-1]))
    low = base.get('minInteger', base.get('minReal'))
    high = base.get('maxInteger', base.get('maxReal'))
    if low is not None and high is not None:
        constraints.append('in range %s to %s' % (number(low), number(high)))
    elif low is not None:
        constraints.append('at least %s' % number(low))
    elif high is not None:
        constraints.append('at most %s' % number(high))
    if 'minLength' in base or 'maxLength' in base:
        constraints.append('%s to %s characters long'
                           % (base.get('minLength', 0),
                              base.get('maxLength', 'any number of')))
    if constraints:
        noun += ', ' + ', '.join(constraints)
    return noun


def number(value):
    return '{:,}'.format(value) if isinstance(value, int) else str(value)


def english_type(raw):
    """Describes a column type in words."""
    ctype = column_type(raw)
    key, value = ctype['key'], ctype['value']
    lo, hi = ctype['min'], ctype['max']
    if value is not None:
        text = 'map of %s-%s pairs' % (key_noun(key), key_noun(value))
        extra = []
        if has_constraints(key):
            extra.append('key ' + english_base(key).split(', ', 1)[1])
        if has_constraints(value):
            extra.append('value ' + english_base(value).split(', ', 1)[1])
        if extra:
            text += ', ' + ', '.join(extra)
        return text
    if lo == 1 and hi == 1:
        return english_base(key)
    if lo == 0 and hi == 1:
        return 'optional ' + english_base(key)
    if hi == 'unlimited':
        size = '%d or more ' % lo if lo else ''
    elif lo == 0:
        size = 'up to %d ' % hi
    else:
        size = '%d to %d ' % (lo, hi)
    return 'set of %s%s' % (size, english_base(key, many=True))


def key_noun(base):
    if base['type'] == 'uuid' and 'refTable' in base:
        return base['refTable']
    return base['type']


def has_constraints(base):
    return base['type'] != 'uuid' and english_base(base) != base['type']


class Troff:
    """Accumulates troff output: one request or one paragraph a line."""

    def __init__(self):
        self.lines = []

    def request(self, line):
        self.lines.append(line)

    def text(self, text):
        text = ' '.join(text.split())
        if not text:
            return
        if text[0] in ".'":
            text = '\\&' + text
        self.lines.append(text)


def escape(text, literal=False):
    text = text.replace('\\', '\\e')
    if literal:
        text = text.replace('-', '\\-')
    return text


def quoted(text):
    """Makes 'text' safe inside a double-quoted macro argument."""
    return text.replace('"', '\\(dq')


def inline(element, fonts=('R',), literal=False):
    """Renders the mixed content of 'element' as one troff string: <code>
    in bold (with real minus signs, so that options can be copied), <var>
    and <em> in italics."""
    out = [escape(element.text or '', literal)]
    for child in element:
        font = {'code': 'B', 'var': 'I', 'em': 'I'}.get(child.tag)
        if font is None:
            raise SystemExit('unexpected <%s> inside <%s>'
                             % (child.tag, element.tag))
        content = inline(child, fonts + (font,),
                         literal or child.tag == 'code')
        out.append('\\f%s%s\\f%s' % (font, content, fonts[-1]))
        out.append(escape(child.tail or '', literal))
    return ''.join(out)


BLOCKS = ('p', 'ul', 'pre')


def blocks(element, out, para='.PP', tagged=False):
    """Renders the block content of 'element' (<p>, <ul>, <pre>, or bare
    text, which counts as one paragraph).  'para' is the request that
    starts each paragraph; if 'tagged', the first paragraph continues the
    tagged paragraph that the caller has just begun."""
    started = [tagged]

    def paragraph():
        if started[0]:
            started[0] = False
        else:
            out.request(para)

    has_blocks = any(child.tag in BLOCKS for child in element)
    if not has_blocks:
        text = inline(strip_keys(element))
        if text.strip():
            paragraph()
            out.text(text)
        return
    for child in element:
        if child.tag == 'p':
            paragraph()
            out.text(inline(child))
        elif child.tag == 'ul':
            started[0] = False
            out.request('.RS')
            for item in child.findall('li'):
                out.request('.IP \\(bu 2')
                out.text(inline(item))
            out.request('.RE')
        elif child.tag == 'pre':
            paragraph()
            out.request('.nf')
            for line in (child.text or '').strip('\n').split('\n'):
                out.request('\\&' + escape(line, literal=True))
            out.request('.fi')


def strip_keys(element):
    """A copy of 'element' without its <key> children."""
    copy = ET.Element(element.tag, element.attrib)
    copy.text = element.text
    for child in element:
        if child.tag != 'key':
            copy.append(child)
    return copy


def key_summary(key):
    return key.get('type', 'string')


# What the man page says of a column or key marked compat="yes".
COMPAT_NOTE = 'Accepted for compatibility, not yet acted on.'


def key_facts(key):
    """The sentence that ends a key's description."""
    if key.get('compat') == 'yes':
        return COMPAT_NOTE
    facts = []
    if key.get('default') is not None:
        facts.append('Default: %s.' % key.get('default'))
    if key.get('restart') == 'yes':
        facts.append('A change takes effect when ovs\\-vswitchd restarts.')
    elif key.get('restart') == 'no':
        facts.append('A change takes effect at once.')
    return ' '.join(facts)


def column_facts(column, scolumn):
    facts = []
    if scolumn.get('ephemeral'):
        facts.append('Not saved to disk: ovsdb\\-server forgets it '
                     'when it restarts.')
    if scolumn.get('mutable') is False:
        facts.append('Cannot be changed once the row exists.')
    if column.get('compat') == 'yes':
        facts.append(COMPAT_NOTE)
    return ' '.join(facts)


def summary_rows(element, stable):
    rows = []
    for column in doc_columns(element):
        cname = column.get('name')
        rows.append((cname, english_type(stable['columns'][cname]['type'])))
        for key in column.findall('key'):
            rows.append(('%s : %s' % (cname, key.get('name')),
                         key_summary(key)))
    return rows


# Width of the text of a man page on a terminal, less the indentation of a
# section's body.  Summary tables are laid out here, with a tab stop and
# wrapped lines in no-fill mode, rather than with tbl: groff 1.22's tbl
# leaves blank lines or warns where a wrapped row meets a page break.
SUMMARY_WIDTH = 70


def emit_table(out, heading, rows, literal_names=False):
    """A two-column table with 'heading' (a pair of strings) above 'rows'
    (pairs of plain text).  The second column wraps to fit."""
    first = max(len(name) for name, _ in [heading] + rows) + 3
    width = max(SUMMARY_WIDTH - first, 24)
    # Keep the heading with the first rows.
    out.request('.ne 4v')
    out.request('.PP')
    out.request('.nf')
    out.request('.ta %dn' % first)
    out.request('\\fB%s\\fR\t\\fB%s\\fR' % heading)
    for name, text in rows:
        lines = textwrap.wrap(text, width, break_on_hyphens=False) or ['']
        out.request('\\&%s\t%s' % (escape(name, literal=literal_names),
                                    escape(lines[0])))
        for line in lines[1:]:
            out.request('\t%s' % escape(line))
    out.request('.fi')


def emit_summary(out, rows):
    emit_table(out, ('Column', 'Type'), rows, literal_names=True)


def emit_columns(out, element, stable, depth):
    for child in element:
        if child.tag == 'group':
            if depth == 0:
                out.request('.SS "%s"' % quoted(escape(child.get('title'))))
            else:
                out.request('.PP')
                out.request('\\fB%s\\fR' % escape(child.get('title')))
            blocks_only(child, out)
            emit_columns(out, child, stable, depth + 1)
        elif child.tag == 'column':
            emit_column(out, child, stable)


def blocks_only(element, out):
    """Renders the paragraphs of a table or group, not its columns."""
    copy = ET.Element(element.tag)
    copy.text = element.text
    for child in element:
        if child.tag in BLOCKS:
            copy.append(child)
    if any(child.tag in BLOCKS for child in copy) or (copy.text or '').strip():
        blocks(copy, out)


def emit_column(out, column, stable):
    cname = column.get('name')
    scolumn = stable['columns'][cname]
    out.request('.IP "\\fB%s\\fR: %s" 4'
                % (escape(cname, literal=True),
                   quoted(escape(english_type(scolumn['type'])))))
    blocks(column, out, para='.IP "" 4', tagged=True)
    facts = column_facts(column, scolumn)
    if facts:
        out.request('.IP "" 4')
        out.text(facts)
    keys = column.findall('key')
    if keys:
        out.request('.RS 4')
        for key in keys:
            out.request('.IP "\\fB%s : %s\\fR: %s" 4'
                        % (escape(cname, literal=True),
                           escape(key.get('name'), literal=True),
                           quoted(escape(key_summary(key)))))
            blocks(key, out, para='.IP "" 4', tagged=True)
            facts = key_facts(key)
            if facts:
                out.request('.IP "" 4')
                out.text(facts)
        out.request('.RE')


def cmd_man(args):
    if len(args) != 3:
        usage()
    doc = ET.parse(args[0]).getroot()
    schema = load_schema(args[1])
    version = args[2]
    out = Troff()
    out.request('.\\" Generated by vswitchd/vswitch-doc.py from '
                'vswitch.xml and vswitch.ovsschema.  Do not edit.')
    out.request('.TH ovs\\-vswitchd.conf.db 5 "%s" "dpswitch %s" '
                '"dpswitch Manual"' % (schema['version'], version))
    # Column, key and option names must stay whole to be searched for.
    out.request('.nh')
    out.request('.SH NAME')
    out.text('ovs\\-vswitchd.conf.db \\- %s' % escape(doc.get('title')))
    out.request('.SH DESCRIPTION')
    blocks_only(doc, out)
    out.request('.SH "TABLE SUMMARY"')
    out.text('The database (schema version %s) has these tables:'
             % schema['version'])
    emit_table(out, ('Table', 'Purpose'),
               [(table.get('name'), table.get('title'))
                for table in doc.findall('table')])
    for table in doc.findall('table'):
        tname = table.get('name')
        stable = schema['tables'][tname]
        out.request('.SH "%s TABLE"' % tname)
        blocks_only(table, out)
        facts = table_facts(stable)
        if facts:
            out.request('.PP')
            out.text(facts)
        out.request('.SS "Summary:"')
        emit_summary(out, summary_rows(table, stable))
        out.request('.SS "Details:"')
        emit_columns(out, table, stable, 0)
    out.request('.SH "SEE ALSO"')
    out.text('\\fBovs\\-vsctl\\fR(8), \\fBovs\\-vswitchd\\fR(8), '
             '\\fBovsdb\\-server\\fR(1), \\fBovsdb\\-tool\\fR(1)')
    sys.stdout.write('\n'.join(out.lines) + '\n')
    return 0


def table_facts(stable):
    facts = []
    if stable.get('isRoot'):
        facts.append('Rows of this table are kept even when nothing refers '
                     'to them (it is a root table).')
    else:
        facts.append('A row of this table is deleted automatically when '
                     'no other row refers to it.')
    if stable.get('maxRows') == 1:
        facts.append('It holds at most one row.')
    for index in stable.get('indexes', []):
        facts.append('No two rows may have the same %s.'
                     % ' and '.join('\\fB%s\\fR' % escape(c, literal=True)
                                    for c in index))
    return ' '.join(facts)


# ----------------------------------------------------------------- main ---

def err(message):
    sys.stderr.write('vswitch-doc: %s\n' % message)


def usage():
    sys.stderr.write('usage: vswitch-doc.py man XML SCHEMA VERSION\n'
                     '       vswitch-doc.py coverage XML SCHEMA\n'
                     '       vswitch-doc.py cksum [--print] SCHEMA\n'
                     '       vswitch-doc.py compare REFERENCE SCHEMA\n'
                     '       vswitch-doc.py compat XML SCHEMA\n')
    sys.exit(2)


def main(argv):
    commands = {'man': cmd_man, 'coverage': cmd_coverage,
                'cksum': cmd_cksum, 'compare': cmd_compare,
                'compat': cmd_compat}
    if len(argv) < 2 or argv[1] not in commands:
        usage()
    return commands[argv[1]](argv[2:])


if __name__ == '__main__':
    sys.exit(main(sys.argv))
