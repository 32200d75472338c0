/* The command layer of database-editing tools: see db-ctl.h.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "db-ctl.h"
#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "json.h"
#include "ovsdb-idl.h"
#include "ovsdb/ovsdb-data.h"
#include "ovsdb/ovsdb-error.h"
#include "ovsdb/schema.h"
#include "ovsdb/uuid.h"
#include "table.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(db_ctl_base);

/* Exit status when a command fails, as in Open vSwitch. */
#define DB_CTL_EXIT_FAILURE 1

/* The generic commands (their functions are below). */
static void cmd_comment(struct db_ctl_context *, struct db_ctl_command *);
static void cmd_get(struct db_ctl_context *, struct db_ctl_command *);
static void cmd_list(struct db_ctl_context *, struct db_ctl_command *);
static void cmd_find(struct db_ctl_context *, struct db_ctl_command *);
static void cmd_set(struct db_ctl_context *, struct db_ctl_command *);
static void cmd_add(struct db_ctl_context *, struct db_ctl_command *);
static void cmd_remove(struct db_ctl_context *, struct db_ctl_command *);
static void cmd_clear(struct db_ctl_context *, struct db_ctl_command *);
static void cmd_create(struct db_ctl_context *, struct db_ctl_command *);
static void cmd_destroy(struct db_ctl_context *, struct db_ctl_command *);
static void cmd_wait_until(struct db_ctl_context *, struct db_ctl_command *);

static const struct db_ctl_command_syntax generic_commands[] = {
    {"comment", 0, INT_MAX, cmd_comment, "", false},
    {"get", 2, INT_MAX, cmd_get, "--if-exists,--id=", false},
    {"list", 1, INT_MAX, cmd_list, "--if-exists,--columns=", false},
    {"find", 1, INT_MAX, cmd_find, "--columns=", false},
    {"set", 3, INT_MAX, cmd_set, "--if-exists", true},
    {"add", 4, INT_MAX, cmd_add, "--if-exists", true},
    {"remove", 4, INT_MAX, cmd_remove, "--if-exists", true},
    {"clear", 3, INT_MAX, cmd_clear, "--if-exists", true},
    {"create", 2, INT_MAX, cmd_create, "--id=", true},
    {"destroy", 1, INT_MAX, cmd_destroy, "--if-exists,--all", true},
    {"wait-until", 2, INT_MAX, cmd_wait_until, "", false},
};

/* The registered command tables. */
struct command_table {
    const struct db_ctl_command_syntax *commands;
    size_t n;
};
static struct command_table *command_tables;
static size_t n_command_tables;

static void register_generic_commands(void);
static const struct db_ctl_command_syntax *find_syntax(const char *name);
static void invalidate_cache(struct db_ctl_context *);
static bool option_allowed(const char *list, const char *name,
                           bool *takes_arg);
static void add_command_option(struct db_ctl_command *, const char *arg);
static const char *skip_spaces(const char *);
static char *parse_atom_token(const char **sp,
                              const struct ovsdb_base_type *,
                              union ovsdb_atom *,
                              struct ovsdb_symbol_table *);
static char *unexpected_char(const char *s, char c,
                             const struct ovsdb_type *);
static char *parse_column_key_value(const char *arg,
                                    const struct ovsdb_table_schema *,
                                    const struct ovsdb_column **columnp,
                                    char **keyp, int *opp,
                                    const char *const *ops, size_t n_ops,
                                    char **valuep);
static void check_mutable(const struct ovsdb_idl_row *,
                          const struct ovsdb_column *);
static char *atom_from_string(union ovsdb_atom *,
                              const struct ovsdb_base_type *,
                              const char *s,
                              struct ovsdb_symbol_table *);
static void must_parse_datum(struct ovsdb_datum *,
                             const struct ovsdb_type *, const char *s,
                             struct ovsdb_symbol_table *);

/* Registers the 'n' commands of 'commands', a table that the caller keeps
 * (typically a static array).  A name registered twice is a bug. */
void
db_ctl_register_commands(const struct db_ctl_command_syntax *commands,
                         size_t n)
{
    size_t i;

    register_generic_commands();
    for (i = 0; i < n; i++) {
        if (find_syntax(commands[i].name)) {
            db_ctl_fatal("command '%s' registered twice", commands[i].name);
        }
    }
    command_tables = xrealloc(command_tables, (n_command_tables + 1)
                              * sizeof *command_tables);
    command_tables[n_command_tables].commands = commands;
    command_tables[n_command_tables].n = n;
    n_command_tables++;
}

/* Parses one command from 'argv' (options, name, arguments, up to "--" or
 * the end); 'pre' holds options already seen before it. */
void
db_ctl_parse_command(int argc, char *argv[],
                     struct db_ctl_command *cmd, char **pre, size_t n_pre)
{
    const struct db_ctl_command_syntax *syntax;
    int i, n_args;
    size_t j;

    memset(cmd, 0, sizeof *cmd);
    ds_init(&cmd->output);
    for (j = 0; j < n_pre; j++) {
        add_command_option(cmd, pre[j]);
    }
    for (i = 0; i < argc && argv[i][0] == '-' && argv[i][1] == '-'
             && argv[i][2]; i++) {
        add_command_option(cmd, argv[i]);
    }
    if (i == argc) {
        db_ctl_fatal("missing command name (use --help for help)");
    }
    syntax = find_syntax(argv[i]);
    if (!syntax) {
        db_ctl_fatal("unknown command '%s'; use --help for help", argv[i]);
    }
    for (j = 0; j < cmd->n_options; j++) {
        const struct db_ctl_option *o = &cmd->options[j];
        bool takes_arg;

        if (!option_allowed(syntax->options, o->name, &takes_arg)) {
            db_ctl_fatal("'%s' command has no '%s' option",
                        syntax->name, o->name);
        }
        if (takes_arg && !o->value) {
            db_ctl_fatal("missing argument to '%s' option on '%s' command",
                        o->name, syntax->name);
        } else if (!takes_arg && o->value) {
            db_ctl_fatal("'%s' option on '%s' does not accept an argument",
                        o->name, syntax->name);
        }
    }
    n_args = argc - i - 1;
    if (n_args < syntax->min_args) {
        db_ctl_fatal("'%s' command requires at least %d arguments",
                    syntax->name, syntax->min_args);
    } else if (n_args > syntax->max_args) {
        int k;

        for (k = i + 1; k < argc; k++) {
            if (!strncmp(argv[k], "--", 2)) {
                db_ctl_fatal("'%s' command takes at most %d arguments "
                            "(note that options must precede command "
                            "names and follow a \"--\" argument)",
                            syntax->name, syntax->max_args);
            }
        }
        db_ctl_fatal("'%s' command takes at most %d arguments",
                    syntax->name, syntax->max_args);
    }
    cmd->syntax = syntax;
    cmd->argc = n_args + 1;
    cmd->argv = &argv[i];
}

const char *
db_ctl_command_option(const struct db_ctl_command *cmd, const char *name)
{
    size_t i;

    for (i = 0; i < cmd->n_options; i++) {
        if (!strcmp(cmd->options[i].name, name)) {
            return cmd->options[i].value ? cmd->options[i].value : "";
        }
    }
    return NULL;
}

bool
db_ctl_has_option(const struct db_ctl_command *cmd, const char *name)
{
    return db_ctl_command_option(cmd, name) != NULL;
}

/* Parses a whole column value in ovs-vsctl's syntax: "[a, b]", "{k=v}", or
 * elements without brackets. */
char *
db_ctl_parse_datum(struct ovsdb_datum *datum, const struct ovsdb_type *type,
                  const char *s, struct ovsdb_symbol_table *symtab)
{
    bool is_map = ovsdb_type_is_map(type);
    struct ovsdb_type loose = *type;
    struct ovsdb_error *error;
    const char *p;
    char end = 0;

    loose.n_min = 0;
    loose.n_max = UINT_MAX;
    ovsdb_datum_init_empty(datum);
    p = skip_spaces(s);
    if (*p == (is_map ? '{' : '[')) {
        end = is_map ? '}' : ']';
        p = skip_spaces(p + 1);
    } else if (!*p) {
        return xstrdup(is_map ? "use \"{}\" to specify the empty map"
                       : "use \"[]\" to specify the empty set");
    }
    while (*p && *p != end) {
        union ovsdb_atom key, value;
        const char *before = p;
        char *err;

        if (!is_map && type->key.type == OVSDB_TYPE_INTEGER) {
            /* An integer set also takes ranges "FIRST-LAST". */
            size_t len = strcspn(p, ", []{}");
            char *token = xmemdup0(p, len);
            char *dash = len > 1 ? strchr(token + 1, '-') : NULL;

            if (dash) {
                long long int first, last, v;

                *dash = '\0';
                if (!util_str_to_llong(token, 10, &first)
                    || !util_str_to_llong(dash + 1, 10, &last)
                    || last < first || last - first >= 4096) {
                    *dash = '-';
                    err = xasprintf("\"%s\" is not a valid integer or range",
                                    token);
                    free(token);
                    ovsdb_datum_destroy(datum, &loose);
                    return err;
                }
                for (v = first; v <= last; v++) {
                    struct ovsdb_error *e;

                    key.integer = v;
                    e = ovsdb_atom_check_constraints(&key, &type->key);
                    if (e) {
                        err = ovsdb_error_to_string(e);
                        ovsdb_error_destroy(e);
                        free(token);
                        ovsdb_datum_destroy(datum, &loose);
                        return err;
                    }
                    if (ovsdb_datum_find_key(datum, &key, OVSDB_TYPE_INTEGER)
                        != UINT_MAX) {
                        free(token);
                        ovsdb_datum_destroy(datum, &loose);
                        return xstrdup("set contains duplicate value");
                    }
                    ovsdb_datum_add(datum, &key, NULL, &loose);
                }
                free(token);
                p = skip_spaces(p + len);
                if (*p == ',') {
                    p = skip_spaces(p + 1);
                }
                continue;
            }
            free(token);
        }
        err = parse_atom_token(&p, &type->key, &key, symtab);
        if (!err && p == before) {
            err = unexpected_char(s, *p, type);
        }
        if (err) {
            ovsdb_datum_destroy(datum, &loose);
            return err;
        }
        if (is_map) {
            p = skip_spaces(p);
            if (*p != '=') {
                ovsdb_atom_destroy(&key, type->key.type);
                ovsdb_datum_destroy(datum, &loose);
                return xasprintf("%s: syntax error at \"%c\" expecting "
                                 "\"=\"", s, *p ? *p : ' ');
            }
            p = skip_spaces(p + 1);
            before = p;
            err = parse_atom_token(&p, &type->value, &value, symtab);
            if (!err && p == before) {
                err = unexpected_char(s, *p, type);
            }
            if (err) {
                ovsdb_atom_destroy(&key, type->key.type);
                ovsdb_datum_destroy(datum, &loose);
                return err;
            }
        }
        {
            /* ovsdb_datum_add() does not look for the key. */
            bool duplicate = (ovsdb_datum_find_key(datum, &key,
                                                   type->key.type)
                              != UINT_MAX);

            if (!duplicate) {
                ovsdb_datum_add(datum, &key, is_map ? &value : NULL, &loose);
            }
            ovsdb_atom_destroy(&key, type->key.type);
            if (is_map) {
                ovsdb_atom_destroy(&value, type->value.type);
            }
            if (duplicate) {
                ovsdb_datum_destroy(datum, &loose);
                return xstrdup(is_map ? "map contains duplicate key"
                               : "set contains duplicate value");
            }
        }
        p = skip_spaces(p);
        if (*p == ',') {
            p = skip_spaces(p + 1);
        } else if (*p && *p != end) {
            char *msg = unexpected_char(s, *p, type);

            ovsdb_datum_destroy(datum, &loose);
            return msg;
        }
    }
    if (*p != end) {
        ovsdb_datum_destroy(datum, &loose);
        return xasprintf("%s: missing \"%c\" at end of data", s, end);
    }
    if (end) {
        p = skip_spaces(p + 1);
        if (*p) {
            ovsdb_datum_destroy(datum, &loose);
            return xasprintf("%s: trailing garbage after \"%c\"", s, end);
        }
    }
    if (datum->n < type->n_min || datum->n > type->n_max) {
        char *english = ovsdb_type_to_english(type);
        char *msg;

        if (type->n_max == 1 && datum->n > 1) {
            msg = xasprintf("\"%s\" is not a valid %s", s, english);
        } else {
            msg = xasprintf("%u values when type %s expected", datum->n,
                            english);
        }
        free(english);
        ovsdb_datum_destroy(datum, &loose);
        return msg;
    }
    error = ovsdb_datum_check_constraints(datum, type);
    if (error) {
        char *msg = ovsdb_error_to_string(error);

        ovsdb_error_destroy(error);
        ovsdb_datum_destroy(datum, &loose);
        return msg;
    }
    return NULL;
}

/* Sets "COLUMN[:KEY]=VALUE" in 'row'. */
void
db_ctl_set_column(struct db_ctl_context *ctx,
                  const struct ovsdb_table_schema *ts,
                  const struct ovsdb_idl_row *row, const char *arg)
{
    static const char *const set_ops[] = { "=" };
    const struct ovsdb_column *column;
    char *key, *value, *error;
    int op;

    error = parse_column_key_value(arg, ts, &column, &key, &op, set_ops, 1,
                                   &value);
    if (error) {
        db_ctl_fatal("%s", error);
    }
    if (column->index == OVSDB_COL_UUID) {
        db_ctl_fatal("%s does not contain a column whose name matches "
                    "\"%s\"", ts->name, column->name);
    }
    check_mutable(row, column);
    if (key) {
        union ovsdb_atom key_atom, value_atom;
        struct ovsdb_datum d;

        if (!ovsdb_type_is_map(&column->type)) {
            db_ctl_fatal("cannot specify key to set for non-map column %s",
                        column->name);
        }
        error = atom_from_string(&key_atom, &column->type.key, key,
                                 ctx->symtab);
        if (!error) {
            error = atom_from_string(&value_atom, &column->type.value, value,
                                     ctx->symtab);
        }
        if (error) {
            db_ctl_fatal("%s", error);
        }
        ovsdb_datum_clone(&d, ovsdb_idl_row_get(row, column), &column->type);
        {
            unsigned int idx = ovsdb_datum_find_key(&d, &key_atom,
                                                    column->type.key.type);

            if (idx != UINT_MAX) {
                ovsdb_datum_remove(&d, idx, &column->type);
            }
        }
        ovsdb_datum_add(&d, &key_atom, &value_atom, &column->type);
        ovsdb_atom_destroy(&key_atom, column->type.key.type);
        ovsdb_atom_destroy(&value_atom, column->type.value.type);
        if (d.n > column->type.n_max) {
            db_ctl_fatal("\"%s\" column %s: too many values", ts->name,
                        column->name);
        }
        ovsdb_idl_txn_verify(ctx->txn, row, column);
        ovsdb_idl_txn_write(ctx->txn, row, column, &d);
        free(key);
    } else {
        struct ovsdb_datum d;

        must_parse_datum(&d, &column->type, value, ctx->symtab);
        ovsdb_idl_txn_write(ctx->txn, row, column, &d);
    }
    free(value);
    invalidate_cache(ctx);
}

/* Prints "PROGRAM: message" to stderr and exits with status 1 (the exit
 * status of a failed command in Open vSwitch's tools). */
void
db_ctl_fatal(const char *format_, ...)
{
    va_list args;

    fflush(stdout);
    fprintf(stderr, "%s: ", util_program_name());
    va_start(args, format_);
    vfprintf(stderr, format_, args);
    va_end(args);
    putc('\n', stderr);
    exit(DB_CTL_EXIT_FAILURE);
}

/* Whether the comma-separated 'list' has 'name' (as "--name" or
 * "--name="); sets '*takes_arg'. */
static bool
option_allowed(const char *list, const char *name, bool *takes_arg)
{
    size_t len = strlen(name);
    const char *p = list;

    while (p && *p) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t) (end - p) : strlen(p);

        if (n >= len && !strncmp(p, name, len)
            && (n == len || (n == len + 1 && p[len] == '='))) {
            *takes_arg = n == len + 1;
            return true;
        }
        p = end ? end + 1 : NULL;
    }
    return false;
}

static void
add_command_option(struct db_ctl_command *cmd, const char *arg)
{
    const char *eq = strchr(arg, '=');
    struct db_ctl_option *o;
    char *name = eq ? xmemdup0(arg, eq - arg) : xstrdup(arg);
    size_t i;

    for (i = 0; i < cmd->n_options; i++) {
        if (!strcmp(cmd->options[i].name, name)) {
            db_ctl_fatal("'%s' option specified multiple times", name);
        }
    }
    cmd->options = xrealloc(cmd->options,
                            (cmd->n_options + 1) * sizeof *cmd->options);
    o = &cmd->options[cmd->n_options++];
    o->name = name;
    o->value = eq ? xstrdup(eq + 1) : NULL;
}

/* How well user input 's' matches 'name': 2 exactly, 1 as a prefix, 0 not
 * at all.  A "-" in 's' matches a "_" in 'name', so that "select-all"
 * finds "select_all"; 'icase' ignores case. */
static int
name_match(const char *name, const char *s, bool icase)
{
    for (;; name++, s++) {
        if (!*s) {
            return *name ? 1 : 2;
        }
        if (*name == *s || (*name == '_' && *s == '-')
            || (icase && tolower((unsigned char) *name)
                         == tolower((unsigned char) *s))) {
            continue;
        }
        return 0;
    }
}

static int
compare_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *) a, *(const char *const *) b);
}

/* Finds a table by a case-insensitive name or unique prefix. */
static const struct ovsdb_table_schema *
find_table(const struct db_ctl_context *ctx, const char *name)
{
    const struct ovsdb_schema *schema = ovsdb_idl_get_schema(ctx->idl);
    const struct ovsdb_table_schema *best = NULL;
    int score = 0;
    size_t i;

    for (i = 0; i < schema->n_tables; i++) {
        const struct ovsdb_table_schema *ts = schema->tables[i];
        int s;

        s = name_match(ts->name, name, true);
        if (s > score) {
            score = s;
            best = ts;
        } else if (s && s == score) {
            best = NULL;
        }
    }
    if (!best && score) {
        struct ds names = DS_EMPTY_INITIALIZER;
        const char **matches = xmalloc(schema->n_tables * sizeof *matches);
        size_t n = 0;

        for (i = 0; i < schema->n_tables; i++) {
            if (name_match(schema->tables[i]->name, name, true) == score) {
                matches[n++] = schema->tables[i]->name;
            }
        }
        qsort(matches, n, sizeof *matches, compare_names);
        for (i = 0; i < n; i++) {
            ds_put_format(&names, "%s%s", i ? ", " : "", matches[i]);
        }
        free(matches);
        db_ctl_fatal("\"%s\" matches multiple table names: %s", name,
                     ds_cstr(&names));
    }
    if (!best) {
        db_ctl_fatal("unknown table \"%s\"", name);
    }
    return best;
}

/* Finds a column by exact name or unique prefix; returns NULL and an error
 * message in '*errorp' if none. */
static const struct ovsdb_column *
find_column(const struct ovsdb_table_schema *ts, const char *name,
            char **errorp)
{
    const struct ovsdb_column *best = NULL;
    int score = 0;
    size_t i;

    *errorp = NULL;
    for (i = 0; i < ts->n_columns; i++) {
        const struct ovsdb_column *c = ts->columns[i];
        int s;

        if (c->index == OVSDB_COL_VERSION) {
            continue;
        }
        s = name_match(c->name, name, false);
        if (s > score) {
            score = s;
            best = c;
        } else if (s && s == score) {
            best = NULL;
        }
    }
    if (!best) {
        *errorp = xasprintf(score ? "%s contains more than one column whose "
                            "name matches \"%s\""
                            : "%s does not contain a column whose name "
                            "matches \"%s\"", ts->name, name);
    }
    return best;
}

static const struct ovsdb_column *
must_find_column(const struct ovsdb_table_schema *ts, const char *name)
{
    char *error;
    const struct ovsdb_column *c = find_column(ts, name, &error);

    if (!c) {
        db_ctl_fatal("%s", error);
    }
    return c;
}

/* ------------------------------------------------------------------------
 * Values: parsing the command-line syntax.
 * ------------------------------------------------------------------------ */

static bool
is_delim(char c)
{
    return c && strchr(":=, []{}!<>", c);
}

static const char *
skip_spaces(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\n') {
        p++;
    }
    return p;
}

/* Parses a token at '*sp': a JSON string literal or a run of
 * non-delimiters.  Stores it in '*tokenp' (caller frees) and advances. */
static char *
parse_token(const char **sp, char **tokenp)
{
    const char *s = *sp;

    *tokenp = NULL;
    if (*s == '"') {
        const char *p = s + 1;
        json_t *json;
        char *text;

        for (;;) {
            if (!*p) {
                return xasprintf("%s: missing quote at end of quoted string",
                                 s);
            } else if (*p == '\\' && p[1]) {
                p += 2;
            } else if (*p == '"') {
                break;
            } else {
                p++;
            }
        }
        text = xmemdup0(s, p + 1 - s);
        json = jsonx_from_string(text, NULL);
        free(text);
        if (!json || !json_is_string(json)) {
            json_decref(json);
            return xasprintf("%s: syntax error in quoted string", s);
        }
        *tokenp = xstrdup(json_string_value(json));
        json_decref(json);
        *sp = p + 1;
    } else {
        const char *p = s;

        while (*p && !is_delim(*p)) {
            p++;
        }
        *tokenp = xmemdup0(s, p - s);
        *sp = p;
    }
    return NULL;
}

static bool
looks_like_uuid_prefix(const char *s)
{
    return strspn(s, "0123456789abcdefABCDEF-") == strlen(s);
}

/* Parses 'atom' of 'base' from 's', the whole string.  "@name" names a
 * row created with --id in this run when 'symtab' is nonnull. */
static char *
atom_from_string(union ovsdb_atom *atom, const struct ovsdb_base_type *base,
                 const char *s, struct ovsdb_symbol_table *symtab)
{
    struct ovsdb_error *error;
    json_t *json;

    switch (base->type) {
    case OVSDB_TYPE_INTEGER: {
        long long int v;

        if (!util_str_to_llong(s, 10, &v)) {
            return xasprintf("\"%s\" is not a valid integer or range", s);
        }
        atom->integer = v;
        break;
    }
    case OVSDB_TYPE_REAL:
        if (!util_str_to_double(s, &atom->real)) {
            return xasprintf("\"%s\" is not a valid real number", s);
        }
        break;
    case OVSDB_TYPE_BOOLEAN:
        if (!strcmp(s, "true")) {
            atom->boolean = true;
        } else if (!strcmp(s, "false")) {
            atom->boolean = false;
        } else {
            return xasprintf("\"%s\" is not a valid boolean "
                             "(use \"true\" or \"false\")", s);
        }
        break;
    case OVSDB_TYPE_STRING:
        if (*s == '"') {
            const char *p = s;
            char *token, *err = parse_token(&p, &token);

            if (err) {
                return err;
            } else if (*p) {
                free(token);
                return xasprintf("%s: extra characters after quoted string",
                                 s);
            }
            atom->string = token;
        } else {
            atom->string = xstrdup(s);
        }
        /* The database takes only UTF-8; the JSON of anything else would
         * not say what the user typed. */
        json = json_string(atom->string);
        if (!json) {
            char *msg = xasprintf("\"%s\" is not a valid UTF-8 string", s);

            ovsdb_atom_destroy(atom, base->type);
            return msg;
        }
        json_decref(json);
        break;
    case OVSDB_TYPE_UUID:
        if (*s == '@' && symtab) {
            struct ovsdb_symbol *sym = ovsdb_symbol_table_get(symtab, s);

            if (!sym) {
                sym = ovsdb_symbol_table_insert(symtab, s);
            }
            atom->uuid = sym->uuid;
            if (ovsdb_base_type_is_strong_ref(base)) {
                sym->strong_ref = true;
            } else if (ovsdb_base_type_is_weak_ref(base)) {
                sym->weak_ref = true;
            }
        } else if (!uuid_from_string(&atom->uuid, s)) {
            return xasprintf("\"%s\" is not a valid UUID", s);
        }
        break;
    case OVSDB_TYPE_VOID:
    case OVSDB_N_TYPES:
        abort();
    }
    error = ovsdb_atom_check_constraints(atom, base);
    if (error) {
        char *msg = ovsdb_error_to_string(error);

        ovsdb_error_destroy(error);
        ovsdb_atom_destroy(atom, base->type);
        return msg;
    }
    return NULL;
}

static char *
parse_atom_token(const char **sp, const struct ovsdb_base_type *base,
                 union ovsdb_atom *atom, struct ovsdb_symbol_table *symtab)
{
    char *token, *error;
    const char *start = *sp;

    error = parse_token(sp, &token);
    if (error) {
        return error;
    }
    if (!*token && *start != '"') {
        free(token);
        if (!**sp) {
            return xstrdup("unexpected end of input");
        }
        return NULL;    /* The caller reports the delimiter. */
    }
    if (*start == '"' && base->type == OVSDB_TYPE_STRING) {
        atom->string = token;
        error = NULL;
        {
            struct ovsdb_error *e = ovsdb_atom_check_constraints(atom, base);

            if (e) {
                error = ovsdb_error_to_string(e);
                ovsdb_error_destroy(e);
                free(token);
            }
        }
        return error;
    }
    error = atom_from_string(atom, base, token, symtab);
    free(token);
    return error;
}

/* Returns the error for character 'c' found where a value of 'type' was
 * expected in 's'. */
static char *
unexpected_char(const char *s, char c, const struct ovsdb_type *type)
{
    char *english = ovsdb_type_to_english(type);
    char *msg = xasprintf("%s: unexpected \"%c\" parsing %s", s, c,
                          english);

    free(english);
    return msg;
}

static void
must_parse_datum(struct ovsdb_datum *datum, const struct ovsdb_type *type,
                 const char *s, struct ovsdb_symbol_table *symtab)
{
    char *error = db_ctl_parse_datum(datum, type, s, symtab);

    if (error) {
        db_ctl_fatal("%s", error);
    }
}

/* Appends 'datum' in bare form: no quotes, no brackets. */
static void
datum_to_bare(const struct ovsdb_datum *datum, const struct ovsdb_type *type,
              struct ds *ds)
{
    unsigned int i;

    for (i = 0; i < datum->n; i++) {
        if (i) {
            ds_put_char(ds, ' ');
        }
        if (type->key.type == OVSDB_TYPE_STRING) {
            ds_put_cstr(ds, datum->keys[i].string);
        } else {
            ovsdb_atom_to_string(&datum->keys[i], type->key.type, ds);
        }
        if (datum->values) {
            ds_put_char(ds, '=');
            if (type->value.type == OVSDB_TYPE_STRING) {
                ds_put_cstr(ds, datum->values[i].string);
            } else {
                ovsdb_atom_to_string(&datum->values[i], type->value.type, ds);
            }
        }
    }
}

/* Sets 'cell' to 'd' in each data form (--data=string, bare, json). */
static void
set_cell(struct table_cell *cell, const struct ovsdb_datum *d,
         const struct ovsdb_type *type)
{
    struct ds text = DS_EMPTY_INITIALIZER;
    struct ds bare = DS_EMPTY_INITIALIZER;

    ovsdb_datum_to_string(d, type, &text);
    datum_to_bare(d, type, &bare);
    table_cell_set(cell, ds_cstr(&text), ds_cstr(&bare),
                   ovsdb_datum_to_json(d, type));
    ds_destroy(&text);
    ds_destroy(&bare);
}

/* ------------------------------------------------------------------------
 * Finding records.
 * ------------------------------------------------------------------------ */

static const struct db_ctl_row_id *
find_row_id(const struct db_ctl_context *ctx,
            const struct ovsdb_table_schema *ts)
{
    size_t i;

    for (i = 0; i < ctx->n_row_ids; i++) {
        if (!strcmp(ctx->row_ids[i].table, ts->name)) {
            return &ctx->row_ids[i];
        }
    }
    return NULL;
}

static const struct ovsdb_idl_row *
get_row_by_row_id(struct db_ctl_context *ctx,
                  const struct ovsdb_table_schema *ts,
                  const struct db_ctl_row_id *id, const char *record)
{
    const struct ovsdb_table_schema *ref_ts;
    const struct ovsdb_idl_row *referrer = NULL, *row;

    ref_ts = ovsdb_idl_get_table(ctx->idl, id->ref_table);
    if (!ref_ts) {
        return NULL;
    }
    if (!id->name_column) {
        if (strcmp(record, ".")) {
            return NULL;
        }
        referrer = ovsdb_idl_first_row(ctx->idl, ref_ts);
        if (referrer && ovsdb_idl_next_row(referrer)) {
            return NULL;
        }
    } else {
        const struct ovsdb_column *name_col
            = ovsdb_table_schema_find_column(ref_ts, id->name_column);

        if (!name_col) {
            return NULL;
        }
        OVSDB_IDL_FOR_EACH_ROW (row, ctx->idl, ref_ts) {
            const struct ovsdb_datum *d = ovsdb_idl_row_get(row, name_col);
            struct ds s = DS_EMPTY_INITIALIZER;
            bool match;

            if (d->n != 1) {
                continue;
            }
            if (name_col->type.key.type == OVSDB_TYPE_STRING) {
                match = !strcmp(d->keys[0].string, record);
            } else {
                ovsdb_atom_to_string(&d->keys[0], name_col->type.key.type,
                                     &s);
                match = !strcmp(ds_cstr(&s), record);
            }
            ds_destroy(&s);
            if (match) {
                if (referrer) {
                    db_ctl_fatal("multiple rows in %s match \"%s\"",
                                ref_ts->name, record);
                }
                referrer = row;
            }
        }
    }
    if (!referrer) {
        return NULL;
    }
    if (id->ref_column) {
        const struct ovsdb_column *ref_col
            = ovsdb_table_schema_find_column(ref_ts, id->ref_column);
        const struct ovsdb_datum *d;

        if (!ref_col) {
            return NULL;
        }
        d = ovsdb_idl_row_get(referrer, ref_col);
        if (d->n != 1) {
            return NULL;
        }
        return ovsdb_idl_get_row(ctx->idl, ts, &d->keys[0].uuid);
    }
    return referrer;
}

static const struct ovsdb_idl_row *
get_row(struct db_ctl_context *ctx, const struct ovsdb_table_schema *ts,
        const char *record, bool must_exist)
{
    const struct ovsdb_idl_row *row = NULL;
    const struct db_ctl_row_id *id;
    struct uuid uuid;

    if (uuid_from_string(&uuid, record)) {
        row = ovsdb_idl_get_row(ctx->idl, ts, &uuid);
    }
    if (!row && (id = find_row_id(ctx, ts)) != NULL) {
        row = get_row_by_row_id(ctx, ts, id, record);
    }
    if (!row && strlen(record) >= 4 && looks_like_uuid_prefix(record)) {
        const struct ovsdb_idl_row *r;

        OVSDB_IDL_FOR_EACH_ROW (r, ctx->idl, ts) {
            char s[UUID_LEN + 1];

            uuid_to_string(ovsdb_idl_row_get_uuid(r), s);
            if (!strncmp(s, record, strlen(record))) {
                if (row) {
                    db_ctl_fatal("%s contains 2 or more rows whose UUIDs "
                                "begin with %s", ts->name, record);
                }
                row = r;
            }
        }
    }
    if (!row && must_exist) {
        db_ctl_fatal("no row \"%s\" in table %s", record, ts->name);
    }
    return row;
}

/* Returns Open vSwitch's message for an argument 'arg' that lacks one of
 * the 'n_ops' operators in 'ops' followed by a value. */
static char *
missing_operator_error(const char *arg, const char *const *ops, size_t n_ops)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    size_t i;

    ds_put_format(&s, "%s: argument does not end in ", arg);
    for (i = 0; i < n_ops; i++) {
        if (i) {
            ds_put_cstr(&s, i == n_ops - 1 ? ", or " : ", ");
        }
        ds_put_format(&s, "\"%s\"", ops[i]);
    }
    ds_put_cstr(&s, " followed by a value.");
    return ds_steal_cstr(&s);
}

/* Parses "COLUMN[:KEY][OP VALUE]" from 'arg'.  'ops' is the list of
 * operators allowed (NULL: none, the argument is just COLUMN[:KEY]). */
static char *
parse_column_key_value(const char *arg, const struct ovsdb_table_schema *ts,
                       const struct ovsdb_column **columnp, char **keyp,
                       int *opp, const char *const *ops, size_t n_ops,
                       char **valuep)
{
    const char *p = arg;
    char *name, *error;
    size_t len;

    *columnp = NULL;
    *keyp = NULL;
    *valuep = NULL;
    *opp = -1;

    len = strcspn(p, ":=!<>{}");
    if (!len) {
        return xasprintf("%s: missing column name", arg);
    }
    name = xmemdup0(p, len);
    p += len;
    *columnp = find_column(ts, name, &error);
    free(name);
    if (!*columnp) {
        return error;
    }

    if (*p == ':') {
        p++;
        error = parse_token(&p, keyp);
        if (error) {
            return error;
        }
    }

    if (ops) {
        size_t best_len = 0, i;

        for (i = 0; i < n_ops; i++) {
            size_t l = strlen(ops[i]);

            if (l > best_len && !strncmp(p, ops[i], l)) {
                best_len = l;
                *opp = i;
            }
        }
        if (!best_len || !p[best_len]) {
            return missing_operator_error(arg, ops, n_ops);
        }
        *valuep = xstrdup(p + best_len);
    } else if (*p) {
        return xasprintf("%s: trailing garbage \"%s\" in argument", arg, p);
    }
    return NULL;
}

static void
check_mutable(const struct ovsdb_idl_row *row,
              const struct ovsdb_column *column)
{
    if (!column->mutable_ && !ovsdb_idl_row_is_new(row)) {
        db_ctl_fatal("cannot modify read-only column %s in table %s",
                    column->name, ovsdb_idl_row_get_table(row)->name);
    }
}

/* ------------------------------------------------------------------------
 * Database commands.
 * ------------------------------------------------------------------------ */

static char **
parse_columns_option(const char *columns,
                     const struct ovsdb_table_schema *ts, size_t *np,
                     const struct ovsdb_column ***colsp)
{
    const struct ovsdb_column **cols = NULL;
    char **names = NULL;
    size_t n = 0;

    if (columns) {
        char *copy = xstrdup(columns), *save = NULL, *tok;

        for (tok = strtok_r(copy, ", ", &save); tok;
             tok = strtok_r(NULL, ", ", &save)) {
            const struct ovsdb_column *c = must_find_column(ts, tok);

            cols = xrealloc(cols, (n + 1) * sizeof *cols);
            names = xrealloc(names, (n + 1) * sizeof *names);
            cols[n] = c;
            names[n] = xstrdup(c->name);
            n++;
        }
        free(copy);
    } else {
        size_t i;

        for (i = 0; i < ts->n_columns; i++) {
            if (i == OVSDB_COL_VERSION) {
                continue;
            }
            cols = xrealloc(cols, (n + 1) * sizeof *cols);
            names = xrealloc(names, (n + 1) * sizeof *names);
            cols[n] = ts->columns[i];
            names[n] = xstrdup(ts->columns[i]->name);
            n++;
        }
    }
    *np = n;
    *colsp = cols;
    return names;
}

static void
list_row(struct table *t, const struct ovsdb_idl_row *row,
         const struct ovsdb_column **cols, size_t n)
{
    struct table_cell *cells = table_add_row(t);
    size_t i;

    for (i = 0; i < n; i++) {
        if (cols[i]->index == OVSDB_COL_UUID) {
            struct ovsdb_datum d;
            union ovsdb_atom atom;

            ovsdb_datum_init_empty(&d);
            atom.uuid = *ovsdb_idl_row_get_uuid(row);
            ovsdb_datum_add(&d, &atom, NULL, &cols[i]->type);
            set_cell(&cells[i], &d, &cols[i]->type);
            ovsdb_datum_destroy(&d, &cols[i]->type);
        } else {
            set_cell(&cells[i], ovsdb_idl_row_get(row, cols[i]),
                     &cols[i]->type);
        }
    }
}

static struct table *
start_table(const struct db_ctl_context *ctx,
            const struct db_ctl_command *cmd,
            const struct ovsdb_table_schema *ts,
            const struct ovsdb_column ***colsp, size_t *np)
{
    const char *columns = db_ctl_command_option(cmd, "--columns");
    struct table *t = table_create(NULL);
    char **names = parse_columns_option(columns ? columns : ctx->columns,
                                        ts, np, colsp);
    size_t i;

    for (i = 0; i < *np; i++) {
        table_add_column(t, names[i]);
        free(names[i]);
    }
    free(names);
    return t;
}

static void
cmd_list(struct db_ctl_context *ctx, struct db_ctl_command *cmd)
{
    const struct ovsdb_table_schema *ts = find_table(ctx, cmd->argv[1]);
    bool must_exist = !db_ctl_has_option(cmd, "--if-exists");
    const struct ovsdb_column **cols;
    const struct ovsdb_idl_row *row;
    size_t n;
    int i;

    cmd->table = start_table(ctx, cmd, ts, &cols, &n);
    if (cmd->argc > 2) {
        for (i = 2; i < cmd->argc; i++) {
            row = get_row(ctx, ts, cmd->argv[i], must_exist);
            if (row) {
                list_row(cmd->table, row, cols, n);
            }
        }
    } else {
        OVSDB_IDL_FOR_EACH_ROW (row, ctx->idl, ts) {
            list_row(cmd->table, row, cols, n);
        }
    }
    free(cols);
}

static const char *const cond_ops[] = {
    "=", "!=", "<", ">", "<=", ">=",
    "{=}", "{!=}", "{<}", "{>}", "{<=}", "{>=}", "{in}", "{not-in}"
};
enum { OP_EQ, OP_NE, OP_LT, OP_GT, OP_LE, OP_GE,
       OP_SET_EQ, OP_SET_NE, OP_SUBSET, OP_SUPERSET, OP_SUBSET_EQ,
       OP_SUPERSET_EQ, OP_IN, OP_NOT_IN };

/* Orders two values as ovs-vsctl(8) says "<" and ">" do: the set with more
 * elements is larger; sets of equal size compare element by element in
 * increasing order, a map's keys before its values. */
static int
datum_compare(const struct ovsdb_datum *a, const struct ovsdb_datum *b,
              const struct ovsdb_type *type)
{
    return ovsdb_datum_compare_ovs(a, b, type);
}

/* Whether 'row' satisfies "COLUMN[:KEY]OP VALUE" in 'arg'. */
static bool
is_condition_satisfied(struct db_ctl_context *ctx,
                       const struct ovsdb_table_schema *ts,
                       const struct ovsdb_idl_row *row, const char *arg)
{
    const struct ovsdb_column *column;
    char *key, *value, *error;
    struct ovsdb_datum have, want;
    struct ovsdb_type type;
    bool result;
    int op;

    error = parse_column_key_value(arg, ts, &column, &key, &op, cond_ops,
                                   sizeof cond_ops / sizeof cond_ops[0],
                                   &value);
    if (error) {
        db_ctl_fatal("%s", error);
    }

    if (column->index == OVSDB_COL_UUID) {
        union ovsdb_atom atom;

        ovsdb_datum_init_empty(&have);
        atom.uuid = *ovsdb_idl_row_get_uuid(row);
        ovsdb_datum_add(&have, &atom, NULL, &column->type);
    } else {
        ovsdb_datum_clone(&have, ovsdb_idl_row_get(row, column),
                          &column->type);
    }
    type = column->type;
    if (key) {
        union ovsdb_atom key_atom;
        unsigned int idx;

        if (!ovsdb_type_is_map(&column->type)) {
            db_ctl_fatal("cannot specify key to check for non-map column %s",
                        column->name);
        }
        error = atom_from_string(&key_atom, &column->type.key, key, NULL);
        if (error) {
            db_ctl_fatal("%s", error);
        }
        /* Compare the value for the key, as a set of 0 or 1 values. */
        ovsdb_type_init_scalar(&type, column->type.value.type);
        type.value.type = OVSDB_TYPE_VOID;
        type.key = column->type.value;
        type.n_min = 0;
        type.n_max = op >= OP_SET_EQ ? UINT_MAX : 1;
        idx = ovsdb_datum_find_key(&have, &key_atom, column->type.key.type);
        {
            struct ovsdb_datum v;

            ovsdb_datum_init_empty(&v);
            if (idx != UINT_MAX) {
                ovsdb_datum_add(&v, &have.values[idx], NULL, &type);
            }
            ovsdb_datum_destroy(&have, &column->type);
            have = v;
        }
        ovsdb_atom_destroy(&key_atom, column->type.key.type);
        if (idx == UINT_MAX && op < OP_SET_EQ) {
            /* A missing key satisfies only "!=". */
            ovsdb_datum_destroy(&have, &type);
            free(key);
            free(value);
            return op == OP_NE;
        }
        {
            struct ovsdb_type vtype = type;

            vtype.n_min = op >= OP_SET_EQ ? 0 : 1;
            error = db_ctl_parse_datum(&want, &vtype, value, ctx->symtab);
        }
    } else {
        struct ovsdb_type wtype = column->type;

        if (op >= OP_SET_EQ) {
            wtype.n_min = 0;
            wtype.n_max = UINT_MAX;
        }
        error = db_ctl_parse_datum(&want, &wtype, value, ctx->symtab);
    }
    if (error) {
        db_ctl_fatal("%s", error);
    }

    switch (op) {
    case OP_EQ:
    case OP_SET_EQ:
        result = !datum_compare(&have, &want, &type);
        break;
    case OP_NE:
    case OP_SET_NE:
        result = datum_compare(&have, &want, &type) != 0;
        break;
    case OP_LT:
        result = datum_compare(&have, &want, &type) < 0;
        break;
    case OP_GT:
        result = datum_compare(&have, &want, &type) > 0;
        break;
    case OP_LE:
        result = datum_compare(&have, &want, &type) <= 0;
        break;
    case OP_GE:
        result = datum_compare(&have, &want, &type) >= 0;
        break;
    case OP_SUBSET:
        result = (ovsdb_datum_includes_all(&want, &have, &type)
                  && datum_compare(&have, &want, &type));
        break;
    case OP_SUPERSET:
        result = (ovsdb_datum_includes_all(&have, &want, &type)
                  && datum_compare(&have, &want, &type));
        break;
    case OP_SUBSET_EQ:
    case OP_IN:
        result = ovsdb_datum_includes_all(&want, &have, &type);
        break;
    case OP_NOT_IN:
        result = ovsdb_datum_excludes_all(&have, &want, &type);
        break;
    case OP_SUPERSET_EQ:
        result = ovsdb_datum_includes_all(&have, &want, &type);
        break;
    default:
        abort();
    }
    ovsdb_datum_destroy(&have, key ? &type : &column->type);
    ovsdb_datum_destroy(&want, &type);
    free(key);
    free(value);
    return result;
}

static void
cmd_find(struct db_ctl_context *ctx, struct db_ctl_command *cmd)
{
    const struct ovsdb_table_schema *ts = find_table(ctx, cmd->argv[1]);
    const struct ovsdb_column **cols;
    const struct ovsdb_idl_row *row;
    size_t n;

    cmd->table = start_table(ctx, cmd, ts, &cols, &n);
    OVSDB_IDL_FOR_EACH_ROW (row, ctx->idl, ts) {
        int i;

        for (i = 2; i < cmd->argc; i++) {
            if (!is_condition_satisfied(ctx, ts, row, cmd->argv[i])) {
                break;
            }
        }
        if (i == cmd->argc) {
            list_row(cmd->table, row, cols, n);
        }
    }
    free(cols);
}

static void
set_symbol_for(struct db_ctl_context *ctx, const char *id,
               const struct ovsdb_idl_row *row)
{
    struct ovsdb_symbol *sym;

    if (id[0] != '@') {
        db_ctl_fatal("row id \"%s\" does not begin with \"@\"", id);
    }
    sym = ovsdb_symbol_table_get(ctx->symtab, id);
    if (sym && sym->created) {
        db_ctl_fatal("row id \"%s\" may only be specified on one --id "
                    "option", id);
    }
    if (sym && row) {
        /* Earlier commands already used a UUID that the existing row
         * cannot take. */
        db_ctl_fatal("row id \"%s\" specified on \"get\" command was used "
                     "before it was defined", id);
    }
    if (!sym) {
        sym = ovsdb_symbol_table_insert(ctx->symtab, id);
    }
    sym->created = true;
    if (row) {
        /* It names an existing row: nothing to warn about. */
        sym->uuid = *ovsdb_idl_row_get_uuid(row);
        sym->strong_ref = true;
    }
}

static void
cmd_get(struct db_ctl_context *ctx, struct db_ctl_command *cmd)
{
    const struct ovsdb_table_schema *ts = find_table(ctx, cmd->argv[1]);
    bool must_exist = !db_ctl_has_option(cmd, "--if-exists");
    const char *id = db_ctl_command_option(cmd, "--id");
    const struct ovsdb_idl_row *row;
    int i;

    if (id && !must_exist) {
        db_ctl_fatal("--if-exists and --id may not be specified together");
    }
    row = get_row(ctx, ts, cmd->argv[2], must_exist);
    if (!row) {
        return;
    }
    if (id) {
        set_symbol_for(ctx, id, row);
    }
    for (i = 3; i < cmd->argc; i++) {
        const struct ovsdb_column *column;
        char *key, *value, *error;
        int op;

        error = parse_column_key_value(cmd->argv[i], ts, &column, &key, &op,
                                       NULL, 0, &value);
        if (error) {
            db_ctl_fatal("%s", error);
        }
        if (column->index != OVSDB_COL_UUID) {
            ovsdb_idl_txn_verify(ctx->txn, row, column);
        }
        if (key) {
            const struct ovsdb_datum *d = ovsdb_idl_row_get(row, column);
            union ovsdb_atom key_atom;
            unsigned int idx;

            if (!ovsdb_type_is_map(&column->type)) {
                db_ctl_fatal("cannot specify key to get for non-map column %s",
                            column->name);
            }
            error = atom_from_string(&key_atom, &column->type.key, key,
                                     ctx->symtab);
            if (error) {
                db_ctl_fatal("%s", error);
            }
            idx = ovsdb_datum_find_key(d, &key_atom, column->type.key.type);
            ovsdb_atom_destroy(&key_atom, column->type.key.type);
            if (idx == UINT_MAX) {
                if (must_exist) {
                    db_ctl_fatal("no key \"%s\" in %s record \"%s\" column %s",
                                key, ts->name, cmd->argv[2], column->name);
                }
            } else {
                ovsdb_atom_to_string(&d->values[idx], column->type.value.type,
                                     &cmd->output);
            }
            free(key);
        } else if (column->index == OVSDB_COL_UUID) {
            char s[UUID_LEN + 1];

            uuid_to_string(ovsdb_idl_row_get_uuid(row), s);
            ds_put_cstr(&cmd->output, s);
        } else {
            ovsdb_datum_to_string(ovsdb_idl_row_get(row, column),
                                  &column->type, &cmd->output);
        }
        ds_put_char(&cmd->output, '\n');
    }
}

/* The opening of "set", "add", "remove" and "clear": finds the table
 * (argv[1]) and the record (argv[2]) of 'cmd'.  Returns NULL, with '*tsp'
 * set, when --if-exists is given and the record does not exist. */
static const struct ovsdb_idl_row *
get_command_row(struct db_ctl_context *ctx, const struct db_ctl_command *cmd,
                const struct ovsdb_table_schema **tsp)
{
    *tsp = find_table(ctx, cmd->argv[1]);
    return get_row(ctx, *tsp, cmd->argv[2],
                   !db_ctl_has_option(cmd, "--if-exists"));
}

static void
cmd_set(struct db_ctl_context *ctx, struct db_ctl_command *cmd)
{
    const struct ovsdb_table_schema *ts;
    const struct ovsdb_idl_row *row = get_command_row(ctx, cmd, &ts);
    int i;

    if (!row) {
        return;
    }
    for (i = 3; i < cmd->argc; i++) {
        db_ctl_set_column(ctx, ts, row, cmd->argv[i]);
    }
}

static const struct ovsdb_column *
writable_column(const struct ovsdb_table_schema *ts,
                const struct ovsdb_idl_row *row, const char *name)
{
    const struct ovsdb_column *column = must_find_column(ts, name);

    if (column->index == OVSDB_COL_UUID) {
        db_ctl_fatal("%s does not contain a column whose name matches "
                    "\"%s\"", ts->name, column->name);
    }
    check_mutable(row, column);
    return column;
}

static void
cmd_add_remove(struct db_ctl_context *ctx, struct db_ctl_command *cmd,
               bool add)
{
    const struct ovsdb_table_schema *ts;
    const struct ovsdb_idl_row *row = get_command_row(ctx, cmd, &ts);
    const struct ovsdb_column *column;
    struct ovsdb_datum old;
    struct ovsdb_type loose;
    int i;

    if (!row) {
        return;
    }
    column = writable_column(ts, row, cmd->argv[3]);
    loose = column->type;
    loose.n_min = 0;
    loose.n_max = UINT_MAX;
    ovsdb_datum_clone(&old, ovsdb_idl_row_get(row, column), &column->type);
    for (i = 4; i < cmd->argc; i++) {
        struct ovsdb_datum d;
        char *error;

        error = db_ctl_parse_datum(&d, &loose, cmd->argv[i], ctx->symtab);
        if (error && !add && ovsdb_type_is_map(&column->type)) {
            /* "remove" also takes bare keys of a map. */
            struct ovsdb_type keys = loose;

            keys.value.type = OVSDB_TYPE_VOID;
            free(error);
            error = db_ctl_parse_datum(&d, &keys, cmd->argv[i], ctx->symtab);
            if (!error) {
                ovsdb_datum_subtract(&old, &column->type, &d, &keys);
                ovsdb_datum_destroy(&d, &keys);
                continue;
            }
        }
        if (error) {
            db_ctl_fatal("%s", error);
        }
        if (add) {
            unsigned int k;

            for (k = 0; k < d.n; k++) {
                if (ovsdb_type_is_map(&column->type)) {
                    /* An existing key keeps its value, as in OVS. */
                    if (ovsdb_datum_find_key(&old, &d.keys[k],
                                             column->type.key.type)
                        != UINT_MAX) {
                        continue;
                    }
                }
                ovsdb_datum_add(&old, &d.keys[k],
                                d.values ? &d.values[k] : NULL, &loose);
            }
        } else {
            ovsdb_datum_subtract(&old, &column->type, &d, &column->type);
        }
        ovsdb_datum_destroy(&d, &loose);
    }
    if (old.n > column->type.n_max) {
        char *english = ovsdb_type_to_english(&column->type);

        db_ctl_fatal("\"%s\" operation would put %u values in column %s of "
                    "table %s but the maximum number is %u",
                    add ? "add" : "remove", old.n, column->name, ts->name,
                    column->type.n_max);
        free(english);
    }
    if (old.n < column->type.n_min) {
        db_ctl_fatal("\"%s\" operation would put %u %s in column %s of "
                    "table %s but the minimum number is %u",
                    add ? "add" : "remove", old.n,
                    ovsdb_type_is_map(&column->type) ? "pairs" : "values",
                    column->name, ts->name, column->type.n_min);
    }
    ovsdb_idl_txn_verify(ctx->txn, row, column);
    ovsdb_idl_txn_write(ctx->txn, row, column, &old);
    invalidate_cache(ctx);
}

static void
cmd_add(struct db_ctl_context *ctx, struct db_ctl_command *cmd)
{
    cmd_add_remove(ctx, cmd, true);
}

static void
cmd_remove(struct db_ctl_context *ctx, struct db_ctl_command *cmd)
{
    cmd_add_remove(ctx, cmd, false);
}

static void
cmd_clear(struct db_ctl_context *ctx, struct db_ctl_command *cmd)
{
    const struct ovsdb_table_schema *ts;
    const struct ovsdb_idl_row *row = get_command_row(ctx, cmd, &ts);
    int i;

    if (!row) {
        return;
    }
    for (i = 3; i < cmd->argc; i++) {
        const struct ovsdb_column *column = writable_column(ts, row,
                                                           cmd->argv[i]);
        struct ovsdb_datum d;

        if (column->type.n_min > 0) {
            db_ctl_fatal("\"clear\" operation cannot be applied to column %s "
                        "of table %s, which is not allowed to be empty",
                        column->name, ts->name);
        }
        ovsdb_datum_init_empty(&d);
        ovsdb_idl_txn_write(ctx->txn, row, column, &d);
    }
    invalidate_cache(ctx);
}

static void
cmd_create(struct db_ctl_context *ctx, struct db_ctl_command *cmd)
{
    const struct ovsdb_table_schema *ts = find_table(ctx, cmd->argv[1]);
    const char *id = db_ctl_command_option(cmd, "--id");
    const struct ovsdb_idl_row *row;
    struct ovsdb_symbol *sym = NULL;
    struct uuid uuid;
    int i;

    if (id && id[0] != '@' && uuid_from_string(&uuid, id)) {
        /* --id=UUID: the new row gets that UUID for good. */
        row = ovsdb_idl_txn_insert_persist_uuid(ctx->txn, ts, &uuid);
    } else {
        if (id) {
            if (id[0] != '@') {
                db_ctl_fatal("row id \"%s\" does not begin with \"@\"", id);
            }
            set_symbol_for(ctx, id, NULL);
            sym = ovsdb_symbol_table_get(ctx->symtab, id);
            if (ts->is_root) {
                /* A root row stays without a reference. */
                sym->strong_ref = true;
            }
        } else if (!ts->is_root) {
            VLOG_WARN("applying \"create\" command to table %s without "
                      "--id option will have no effect", ts->name);
        }
        /* Earlier commands that referred to "@name" hold the symbol's
         * UUID: the new row takes it as its temporary UUID. */
        row = ovsdb_idl_txn_insert_uuid(ctx->txn, ts,
                                        sym ? &sym->uuid : NULL);
    }
    for (i = 2; i < cmd->argc; i++) {
        db_ctl_set_column(ctx, ts, row, cmd->argv[i]);
    }
    cmd->has_created = true;
    cmd->created = *ovsdb_idl_row_get_uuid(row);
}

static void
cmd_destroy(struct db_ctl_context *ctx, struct db_ctl_command *cmd)
{
    const struct ovsdb_table_schema *ts = find_table(ctx, cmd->argv[1]);
    bool must_exist = !db_ctl_has_option(cmd, "--if-exists");
    bool all = db_ctl_has_option(cmd, "--all");
    const struct ovsdb_idl_row *row, *next;
    int i;

    if (all && cmd->argc > 2) {
        db_ctl_fatal("--all and records argument should not be specified "
                    "together");
    }
    if (all && !must_exist) {
        db_ctl_fatal("--all and --if-exists should not be specified "
                    "together");
    }
    if (all) {
        for (row = ovsdb_idl_first_row(ctx->idl, ts); row; row = next) {
            next = ovsdb_idl_next_row(row);
            ovsdb_idl_txn_delete(ctx->txn, row);
        }
    } else {
        for (i = 2; i < cmd->argc; i++) {
            row = get_row(ctx, ts, cmd->argv[i], must_exist);
            if (row) {
                ovsdb_idl_txn_delete(ctx->txn, row);
            }
        }
    }
    invalidate_cache(ctx);
}

static void
cmd_wait_until(struct db_ctl_context *ctx, struct db_ctl_command *cmd)
{
    const struct ovsdb_table_schema *ts = find_table(ctx, cmd->argv[1]);
    const struct ovsdb_idl_row *row;
    int i;

    row = get_row(ctx, ts, cmd->argv[2], false);
    if (!row) {
        ctx->try_again = true;
        return;
    }
    for (i = 3; i < cmd->argc; i++) {
        if (!is_condition_satisfied(ctx, ts, row, cmd->argv[i])) {
            ctx->try_again = true;
            return;
        }
    }
}

static void
cmd_comment(struct db_ctl_context *ctx DPS_UNUSED,
            struct db_ctl_command *cmd DPS_UNUSED)
{
}

/* ------------------------------------------------------------------------
 * The command tables.
 * ------------------------------------------------------------------------ */

static void
register_generic_commands(void)
{
    if (!n_command_tables) {
        command_tables = xmalloc(sizeof *command_tables);
        command_tables[0].commands = generic_commands;
        command_tables[0].n = ARRAY_SIZE(generic_commands);
        n_command_tables = 1;
    }
}

static const struct db_ctl_command_syntax *
find_syntax(const char *name)
{
    size_t i, j;

    register_generic_commands();
    for (i = 0; i < n_command_tables; i++) {
        for (j = 0; j < command_tables[i].n; j++) {
            if (!strcmp(command_tables[i].commands[j].name, name)) {
                return &command_tables[i].commands[j];
            }
        }
    }
    return NULL;
}

static void
invalidate_cache(struct db_ctl_context *ctx)
{
    if (ctx->invalidate_cache) {
        ctx->invalidate_cache(ctx);
    }
}
