#! /usr/bin/env python3
# ovsdb-idlc.py: generates a typed C binding for an OVSDB schema.
#
# Usage: ovsdb-idlc.py header|source SCHEMA PREFIX NAME > OUTPUT
#
# SCHEMA is an .ovsschema file, PREFIX the prefix of every generated name
# ("ovsrec"), NAME the base name of the generated files ("vswitch-idl").
# The binding sits on the generic IDL (lib/ovsdb-idl.h) through
# lib/ovsdb-idl-typed.h, which describes the layout of the row structs; see
# Documentation/internals/idl.rst.
#
# Licensed under the Apache License, Version 2.0 (see LICENSE).

import json
import re
import sys

C_KEYWORDS = {
    "auto", "break", "case", "char", "const", "continue", "default", "do",
    "double", "else", "enum", "extern", "float", "for", "goto", "if",
    "inline", "int", "long", "register", "restrict", "return", "short",
    "signed", "sizeof", "static", "struct", "switch", "typedef", "union",
    "unsigned", "void", "volatile", "while", "bool", "true", "false",
}

ATOMIC = {
    "integer": ("OVSDB_TYPE_INTEGER", "int64_t"),
    "real": ("OVSDB_TYPE_REAL", "double"),
    "boolean": ("OVSDB_TYPE_BOOLEAN", "bool"),
    "string": ("OVSDB_TYPE_STRING", "const char *"),
    "uuid": ("OVSDB_TYPE_UUID", "struct uuid"),
}


def fail(msg):
    sys.stderr.write("ovsdb-idlc.py: %s\n" % msg)
    sys.exit(1)


def c_ident(name):
    s = re.sub(r"[^A-Za-z0-9_]", "_", name).lower()
    if s in C_KEYWORDS:
        s += "_"
    return s


def c_string(text):
    """'text' escaped for a C string literal (non-ASCII as octal)."""
    out = []
    for ch in text:
        if ch in "\\\"":
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif " " <= ch <= "~":
            out.append(ch)
        else:
            for b in ch.encode("utf-8"):
                out.append("\\%03o" % b)
    return "".join(out)


class Base(object):
    """One side (key or value) of a column type."""

    def __init__(self, j):
        if isinstance(j, str):
            j = {"type": j}
        if j.get("type") not in ATOMIC:
            fail("unknown atomic type %r" % (j,))
        self.type = j["type"]
        self.ref_table = j.get("refTable") if self.type == "uuid" else None


class Column(object):
    def __init__(self, table, name, j):
        self.table = table
        self.name = name
        self.c = c_ident(name)
        t = j["type"]
        if isinstance(t, str):
            t = {"key": t}
        self.key = Base(t["key"])
        self.value = Base(t["value"]) if "value" in t else None
        self.n_min = int(t.get("min", 1))
        n_max = t.get("max", 1)
        self.n_max = None if n_max == "unlimited" else int(n_max)

        if self.value:
            if self.key.type == "string" and self.value.type == "string":
                self.layout = "SMAP"
            else:
                self.layout = "MAP"
        elif self.n_min == 1 and self.n_max == 1:
            self.layout = "SCALAR"
        elif self.n_max == 1 and (self.key.type == "string"
                                  or self.key.ref_table):
            self.layout = "OPTIONAL"
        else:
            self.layout = "ARRAY"


class Table(object):
    def __init__(self, schema, name, j):
        self.name = name
        self.c = c_ident(name)
        self.columns = [Column(self, c, cj)
                        for c, cj in sorted(j["columns"].items())]


class Generator(object):
    def __init__(self, schema_file, prefix, base):
        with open(schema_file) as f:
            self.text = f.read()
        j = json.loads(self.text)
        self.db = j["name"]
        self.prefix = prefix
        self.P = prefix.upper()
        self.base = base
        self.tables = [Table(self, n, tj)
                       for n, tj in sorted(j["tables"].items())]
        self.by_name = {t.name: t for t in self.tables}
        for t in self.tables:
            for c in t.columns:
                for b in (c.key, c.value):
                    if b and b.ref_table and b.ref_table not in self.by_name:
                        fail("column %s of %s refers to unknown table %s"
                             % (c.name, t.name, b.ref_table))
        self.out = []

    # Names.
    def struct(self, t):
        return "struct %s_%s" % (self.prefix, t.c)

    def tid(self, t):
        return "%s_TABLE_%s" % (self.P, t.c.upper())

    def cid(self, c):
        return "%s_%s_COL_%s" % (self.P, c.table.c.upper(), c.c.upper())

    def fn(self, t, what):
        return "%s_%s_%s" % (self.prefix, t.c, what)

    def elem(self, b):
        """The C type of one element of 'b' (in a row struct)."""
        if b.ref_table:
            return self.struct(self.by_name[b.ref_table]) + " *"
        return ATOMIC[b.type][1]

    def ref_index(self, b):
        if b and b.ref_table:
            return self.tid(self.by_name[b.ref_table])
        return "-1"

    def w(self, s=""):
        self.out.append(s)

    @staticmethod
    def decl(ctype, name):
        return ctype + name if ctype.endswith("*") else ctype + " " + name

    # The header.
    def members(self, c):
        e = self.elem(c.key)
        if c.layout in ("SCALAR", "OPTIONAL"):
            return [self.decl(e, c.c)]
        if c.layout == "ARRAY":
            return [self.decl(e, "*" + c.c), "size_t n_" + c.c]
        if c.layout == "SMAP":
            return ["struct smap " + c.c]
        v = self.elem(c.value)
        return [self.decl(e, "*key_" + c.c), self.decl(v, "*value_" + c.c),
                "size_t n_" + c.c]

    def setter_params(self, c):
        e = self.elem(c.key)
        if c.layout in ("SCALAR", "OPTIONAL"):
            return self.decl(e, c.c)
        if c.layout == "ARRAY":
            return "%s, size_t n_%s" % (self.decl(e, "const *" + c.c), c.c)
        if c.layout == "SMAP":
            return "const struct smap *" + c.c
        v = self.elem(c.value)
        return "%s, %s, size_t n_%s" % (
            self.decl(e, "const *key_" + c.c),
            self.decl(v, "const *value_" + c.c), c.c)

    def type_comment(self, c):
        def b(x):
            return ("%s reference" % x.ref_table) if x.ref_table else x.type
        if c.value:
            s = "map of %s to %s" % (b(c.key), b(c.value))
        elif c.layout == "SCALAR":
            s = b(c.key)
        elif c.n_max == 1:
            s = "optional %s" % b(c.key)
        else:
            s = "set of %s" % b(c.key)
        return s

    def header(self):
        w = self.w
        guard = re.sub(r"[^A-Z0-9]", "_", self.base.upper()) + "_H"
        w("/* Generated by lib/ovsdb-idlc.py from the %s schema: do not "
          "edit." % self.db)
        w(" *")
        w(" * A typed binding of the %s database (see" % self.db)
        w(" * Documentation/internals/idl.rst and lib/ovsdb-idl-typed.h). */")
        w()
        w("#ifndef %s" % guard)
        w("#define %s 1" % guard)
        w()
        w("#include <stdbool.h>")
        w("#include <stddef.h>")
        w("#include <stdint.h>")
        w('#include "ovsdb-idl.h"')
        w('#include "ovsdb-idl-typed.h"')
        w('#include "ovsdb/uuid.h"')
        w('#include "smap.h"')
        w()
        w("enum %s_table_id {" % self.prefix)
        for t in self.tables:
            w("    %s," % self.tid(t))
        w("    %s_N_TABLES" % self.P)
        w("};")
        w()
        w("extern const struct ovsdb_idl_typed_db %s_db;" % self.prefix)
        w("/* The schema the binding was generated from, as JSON text. */")
        w("extern const char %s_schema[];" % self.prefix)
        w("extern const struct ovsdb_idl_typed_table %s_tables[];"
          % self.prefix)
        w()
        for t in self.tables:
            w("%s;" % self.struct(t))
        for t in self.tables:
            self.header_table(t)
        w("#endif /* %s.h */" % self.base)

    def header_table(self, t):
        w = self.w
        S = self.struct(t)
        w()
        w("/* " + "-" * 72)
        w(" * Table %s." % t.name)
        w(" * " + "-" * 72 + " */")
        w()
        w("%s {" % S)
        w("    struct ovsdb_idl_typed_row header_;")
        for c in t.columns:
            w("")
            w("    /* %s: %s. */" % (c.name, self.type_comment(c)))
            for m in self.members(c):
                w("    %s;" % m)
        w("};")
        w()
        w("enum %s_%s_column_id {" % (self.prefix, t.c))
        for c in t.columns:
            w("    %s," % self.cid(c))
        w("    %s_%s_N_COLUMNS" % (self.P, t.c.upper()))
        w("};")
        w()
        w("extern const struct ovsdb_idl_typed_column %s[];"
          % self.fn(t, "columns"))
        for c in t.columns:
            w("#define %s (%s[%s])" % (self.fn(t, "col_" + c.c),
                                       self.fn(t, "columns"), self.cid(c)))
        w("#define %s_table_%s (%s_tables[%s])"
          % (self.prefix, t.c, self.prefix, self.tid(t)))
        w()
        cid = "enum %s_%s_column_id" % (self.prefix, t.c)
        w("void %s(struct ovsdb_idl *);" % self.fn(t, "add_table"))
        w("void %s(struct ovsdb_idl *, %s);" % (self.fn(t, "add_column"), cid))
        w("const %s *%s(struct ovsdb_idl *);" % (S, self.fn(t, "first")))
        w("const %s *%s(const %s *);" % (S, self.fn(t, "next"), S))
        w("const %s *%s(struct ovsdb_idl *, const struct uuid *);"
          % (S, self.fn(t, "get_for_uuid")))
        w("const %s *%s(struct ovsdb_idl *, const struct ovsdb_idl_row *);"
          % (S, self.fn(t, "from_row")))
        w("const %s *%s(struct ovsdb_idl_txn *);" % (S, self.fn(t, "insert")))
        w("void %s(struct ovsdb_idl_txn *, const %s *);"
          % (self.fn(t, "delete"), S))
        w("void %s(struct ovsdb_idl_txn *, const %s *, %s);"
          % (self.fn(t, "verify"), S, cid))
        w("bool %s(const %s *, unsigned int since);"
          % (self.fn(t, "is_new"), S))
        w("bool %s(const %s *, %s, unsigned int since);"
          % (self.fn(t, "is_updated"), S, cid))
        w("void %s(struct ovsdb_idl *, const struct ovsdb_idl_condition *);"
          % self.fn(t, "set_condition"))
        w()
        w("static inline const struct uuid *")
        w("%s(const %s *row)" % (self.fn(t, "get_uuid"), S))
        w("{")
        w("    return ovsdb_idl_row_get_uuid(row->header_.row);")
        w("}")
        w()
        w("#define %s_%s_FOR_EACH(ROW, IDL) \\" % (self.P, t.c.upper()))
        w("    for ((ROW) = %s(IDL); (ROW); (ROW) = %s(ROW))"
          % (self.fn(t, "first"), self.fn(t, "next")))
        w()
        for c in t.columns:
            w("void %s(struct ovsdb_idl_txn *, const %s *, %s);"
              % (self.fn(t, "set_" + c.c), S, self.setter_params(c)))
            if c.layout not in ("SMAP", "MAP"):
                w("void %s(struct ovsdb_idl_condition *, "
                  "enum ovsdb_idl_function, %s);"
                  % (self.fn(t, "add_clause_" + c.c),
                     self.decl(self.elem(c.key), c.c)))

    # The source.
    def source(self):
        w = self.w
        w("/* Generated by lib/ovsdb-idlc.py from the %s schema: do not "
          "edit. */" % self.db)
        w()
        w("#include <config.h>")
        w('#include "%s.h"' % self.base)
        w()
        w("#include <limits.h>")
        w("#include <stddef.h>")
        w()
        for t in self.tables:
            self.source_columns(t)
        w("const struct ovsdb_idl_typed_table %s_tables[] = {" % self.prefix)
        for t in self.tables:
            w("    [%s] = {" % self.tid(t))
            w('        .name = "%s",' % t.name)
            w("        .index = %s," % self.tid(t))
            w("        .row_size = sizeof(%s)," % self.struct(t))
            w("        .columns = %s," % self.fn(t, "columns"))
            w("        .n_columns = %s_%s_N_COLUMNS," % (self.P, t.c.upper()))
            w("    },")
        w("};")
        w()
        w("const char %s_schema[] =" % self.prefix)
        lines = self.text.splitlines(True)
        for i, line in enumerate(lines):
            w("    \"%s\"%s" % (c_string(line),
                                ";" if i == len(lines) - 1 else ""))
        if not lines:
            w('    "";')
        w()
        w("const struct ovsdb_idl_typed_db %s_db = {" % self.prefix)
        w('    .name = "%s",' % self.db)
        w("    .tables = %s_tables," % self.prefix)
        w("    .n_tables = %s_N_TABLES," % self.P)
        w("};")
        for t in self.tables:
            self.source_functions(t)

    def source_columns(self, t):
        w = self.w
        S = self.struct(t)
        w("const struct ovsdb_idl_typed_column %s[] = {"
          % self.fn(t, "columns"))
        for c in t.columns:
            if c.layout == "MAP":
                off = "offsetof(%s, key_%s)" % (S, c.c)
                voff = "offsetof(%s, value_%s)" % (S, c.c)
            else:
                off = "offsetof(%s, %s)" % (S, c.c)
                voff = "0"
            noff = ("offsetof(%s, n_%s)" % (S, c.c)
                    if c.layout in ("ARRAY", "MAP") else "0")
            w("    [%s] = {" % self.cid(c))
            w('        .name = "%s",' % c.name)
            w("        .table = %s," % self.tid(t))
            w("        .index = %s," % self.cid(c))
            w("        .layout = OVSDB_IDL_TYPED_%s," % c.layout)
            w("        .key_type = %s," % ATOMIC[c.key.type][0])
            w("        .value_type = %s,"
              % (ATOMIC[c.value.type][0] if c.value else "OVSDB_TYPE_VOID"))
            w("        .key_ref = %s," % self.ref_index(c.key))
            w("        .value_ref = %s," % self.ref_index(c.value))
            w("        .n_min = %d," % c.n_min)
            w("        .n_max = %s,"
              % ("UINT_MAX" if c.n_max is None else str(c.n_max)))
            w("        .offset = %s," % off)
            w("        .value_offset = %s," % voff)
            w("        .n_offset = %s," % noff)
            w("    },")
        w("};")
        w()

    def source_functions(self, t):
        w = self.w
        S = self.struct(t)
        P = self.prefix
        tab = "&%s_tables[%s]" % (P, self.tid(t))
        cols = self.fn(t, "columns")
        cid = "enum %s_%s_column_id" % (P, t.c)

        def cast(expr):
            return "(const %s *) %s" % (S, expr)

        w()
        w("/* Table %s. */" % t.name)
        w()
        w("void\n%s(struct ovsdb_idl *idl)\n{" % self.fn(t, "add_table"))
        w("    ovsdb_idl_typed_add_table(idl, &%s_db, %s);\n}" % (P, tab))
        w()
        w("void\n%s(struct ovsdb_idl *idl, %s column)\n{"
          % (self.fn(t, "add_column"), cid))
        w("    ovsdb_idl_typed_add_column(idl, &%s_db, &%s[column]);\n}"
          % (P, cols))
        w()
        w("const %s *\n%s(struct ovsdb_idl *idl)\n{" % (S, self.fn(t, "first")))
        w("    return %s;\n}"
          % cast("ovsdb_idl_typed_first(idl, &%s_db, %s)" % (P, tab)))
        w()
        w("const %s *\n%s(const %s *row)\n{" % (S, self.fn(t, "next"), S))
        w("    return %s;\n}" % cast("ovsdb_idl_typed_next(&row->header_)"))
        w()
        w("const %s *\n%s(struct ovsdb_idl *idl, const struct uuid *uuid)\n{"
          % (S, self.fn(t, "get_for_uuid")))
        w("    return %s;\n}"
          % cast("ovsdb_idl_typed_get_for_uuid(idl, &%s_db, %s, uuid)"
                 % (P, tab)))
        w()
        w("const %s *\n%s(struct ovsdb_idl *idl, "
          "const struct ovsdb_idl_row *row)\n{"
          % (S, self.fn(t, "from_row")))
        w("    return %s;\n}"
          % cast("ovsdb_idl_typed_from_row(idl, &%s_db, %s, row)" % (P, tab)))
        w()
        w("const %s *\n%s(struct ovsdb_idl_txn *txn)\n{"
          % (S, self.fn(t, "insert")))
        w("    return %s;\n}"
          % cast("ovsdb_idl_typed_insert(txn, &%s_db, %s)" % (P, tab)))
        w()
        w("void\n%s(struct ovsdb_idl_txn *txn, const %s *row)\n{"
          % (self.fn(t, "delete"), S))
        w("    ovsdb_idl_typed_delete(txn, &row->header_);\n}")
        w()
        w("void\n%s(struct ovsdb_idl_txn *txn, const %s *row, %s column)\n{"
          % (self.fn(t, "verify"), S, cid))
        w("    ovsdb_idl_typed_verify(txn, &row->header_, &%s[column]);\n}"
          % cols)
        w()
        w("bool\n%s(const %s *row, unsigned int since)\n{"
          % (self.fn(t, "is_new"), S))
        w("    return ovsdb_idl_typed_is_new(&row->header_, since);\n}")
        w()
        w("bool\n%s(const %s *row, %s column, unsigned int since)\n{"
          % (self.fn(t, "is_updated"), S, cid))
        w("    return ovsdb_idl_typed_is_updated(&row->header_, "
          "&%s[column], since);\n}" % cols)
        w()
        w("void\n%s(struct ovsdb_idl *idl, "
          "const struct ovsdb_idl_condition *cond)\n{"
          % self.fn(t, "set_condition"))
        w("    ovsdb_idl_typed_set_condition(idl, %s, cond);\n}" % tab)
        for c in t.columns:
            col = "&%s[%s]" % (cols, self.cid(c))
            w()
            w("void\n%s(struct ovsdb_idl_txn *txn, const %s *row, %s)\n{"
              % (self.fn(t, "set_" + c.c), S, self.setter_params(c)))
            if c.layout == "SCALAR":
                w("    ovsdb_idl_typed_write(txn, &row->header_, %s, &%s, "
                  "NULL, 1);" % (col, c.c))
            elif c.layout == "OPTIONAL":
                w("    ovsdb_idl_typed_write(txn, &row->header_, %s, &%s, "
                  "NULL, %s != NULL);" % (col, c.c, c.c))
            elif c.layout == "ARRAY":
                w("    ovsdb_idl_typed_write(txn, &row->header_, %s, %s, "
                  "NULL, n_%s);" % (col, c.c, c.c))
            elif c.layout == "SMAP":
                w("    ovsdb_idl_typed_write_smap(txn, &row->header_, %s, %s);"
                  % (col, c.c))
            else:
                w("    ovsdb_idl_typed_write(txn, &row->header_, %s, key_%s, "
                  "value_%s, n_%s);" % (col, c.c, c.c, c.c))
            w("}")
            if c.layout not in ("SMAP", "MAP"):
                w()
                w("void\n%s(struct ovsdb_idl_condition *cond, "
                  "enum ovsdb_idl_function function, %s)\n{"
                  % (self.fn(t, "add_clause_" + c.c),
                     self.decl(self.elem(c.key), c.c)))
                w("    ovsdb_idl_condition_add_clause(cond, %s, function,"
                  % col)
                w("        ovsdb_idl_typed_atom_to_json(%s, &%s));" % (col, c.c))
                w("}")


def main(argv):
    if len(argv) != 5 or argv[1] not in ("header", "source"):
        fail("usage: ovsdb-idlc.py header|source SCHEMA PREFIX NAME")
    g = Generator(argv[2], argv[3], argv[4])
    if argv[1] == "header":
        g.header()
    else:
        g.source()
    sys.stdout.write("\n".join(g.out) + "\n")


if __name__ == "__main__":
    main(sys.argv)
