# vswitchd/: nothing yet; see the issue tracker.
