# ofproto/: nothing yet; see the issue tracker.
