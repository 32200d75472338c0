/* The command layer of database-editing tools (ovs-vsctl today).
 *
 * A tool's command line is a list of commands separated by "--", each with
 * its own options ("--if-exists", "--id=@name", ...).  This module parses
 * them against the command tables registered with
 * db_ctl_register_commands(), and implements the commands that work on any
 * database through the generic IDL (lib/ovsdb-idl.h): comment, get, list,
 * find, set, add, remove, clear, create, destroy and wait-until, with the
 * syntax of column values ("[a, b]", "{k=v}", "@name"), the naming of
 * records (by UUID, UUID prefix or the tool's db_ctl_row_id table) and the
 * tables of "list" and "find" (lib/table.h).  The tool keeps its own
 * commands, its global options, the transaction and the printing of the
 * outputs.  See Documentation/internals/db-ctl.rst.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef DB_CTL_H
#define DB_CTL_H 1

#include <stdbool.h>
#include <stddef.h>
#include "dynamic-string.h"
#include "ovsdb/uuid.h"
#include "util.h"

struct ovsdb_datum;
struct ovsdb_idl;
struct ovsdb_idl_row;
struct ovsdb_idl_txn;
struct ovsdb_symbol_table;
struct ovsdb_table_schema;
struct ovsdb_type;
struct table;

/* One option of one command. */
struct db_ctl_option {
    char *name;                 /* With leading "--". */
    char *value;                /* NULL if none. */
};

struct db_ctl_command;
struct db_ctl_context;

/* A command of a tool's command table. */
struct db_ctl_command_syntax {
    const char *name;
    int min_args, max_args;
    /* Runs the command against the replica in 'ctx', inside the tool's
     * transaction; what it prints goes to the command's 'output' or
     * 'table'.  Errors end the program through db_ctl_fatal(). */
    void (*run)(struct db_ctl_context *, struct db_ctl_command *);
    const char *options;        /* Comma-separated "--opt" or "--opt=". */
    bool rw;                    /* Writes the database? */
};

/* A parsed command of the command line. */
struct db_ctl_command {
    const struct db_ctl_command_syntax *syntax;
    int argc;
    char **argv;                /* argv[0] is the command's name. */
    struct db_ctl_option *options;
    size_t n_options;
    struct ds output;
    struct table *table;        /* "list", "find": printed by the tool. */
    /* "create": temporary UUID to replace by the real one. */
    bool has_created;
    struct uuid created;
};

/* How to find a row of a table by a name.  A row of 'table' is named by
 * 'name_column' of a row of 'ref_table' (the row itself when 'ref_column'
 * is NULL, else the single row referenced by 'ref_column'). */
struct db_ctl_row_id {
    const char *table;
    const char *ref_table;
    const char *name_column;    /* NULL: the single row ("."). */
    const char *ref_column;
};

/* What a command runs against.  A tool embeds it in a context of its own
 * and fills it in for every run of its command list. */
struct db_ctl_context {
    struct ovsdb_idl *idl;
    struct ovsdb_idl_txn *txn;
    struct ovsdb_symbol_table *symtab;  /* "@name" row ids. */
    bool try_again;                     /* "wait-until" not yet true. */

    /* Supplied by the tool. */
    const struct db_ctl_row_id *row_ids;
    size_t n_row_ids;
    const char *columns;                /* Global --columns, or NULL. */
    /* Called after a command changed the database, so that the tool drops
     * what it has cached from the replica.  May be NULL. */
    void (*invalidate_cache)(struct db_ctl_context *);
};

/* Registers 'n' commands of 'commands' (which must outlive their use).
 * The generic commands are registered on first use of this module. */
void db_ctl_register_commands(const struct db_ctl_command_syntax *commands,
                              size_t n);

/* Parses one command from 'argv' (options, name, arguments: up to "--" or
 * the end) into 'cmd'; 'pre' holds 'n_pre' options given before the first
 * command.  Any error ends the program with the tool's message. */
void db_ctl_parse_command(int argc, char *argv[], struct db_ctl_command *cmd,
                          char **pre, size_t n_pre);

/* Returns the value of option 'name' ("--if-exists") of 'cmd' ("" if it
 * has none), or NULL if 'cmd' does not have it. */
const char *db_ctl_command_option(const struct db_ctl_command *,
                                  const char *name);
bool db_ctl_has_option(const struct db_ctl_command *, const char *name);

/* Parses column value 's' of 'type' in the command-line syntax into
 * 'datum'.  "@name" references go to 'symtab' (if nonnull).  Returns NULL,
 * or an error message (caller frees; 'datum' then holds nothing). */
char *db_ctl_parse_datum(struct ovsdb_datum *datum,
                         const struct ovsdb_type *type, const char *s,
                         struct ovsdb_symbol_table *symtab);

/* Sets "COLUMN[:KEY]=VALUE" in 'arg' in 'row' of table 'ts' (as "set" and
 * "create" do), through 'ctx''s transaction.  Errors end the program. */
void db_ctl_set_column(struct db_ctl_context *ctx,
                       const struct ovsdb_table_schema *ts,
                       const struct ovsdb_idl_row *row, const char *arg);

/* Prints "PROGRAM: message" to stderr and exits with status 1. */
void db_ctl_fatal(const char *format, ...)
    DPS_NO_RETURN DPS_PRINTF_FORMAT(1, 2);

#endif /* db-ctl.h */
