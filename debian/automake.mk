# debian/: Debian packaging.
