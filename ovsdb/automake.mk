# ovsdb/: nothing yet; see the issue tracker.
