# Documentation/: reStructuredText documents, shipped in the tarball.

EXTRA_DIST += \
	Documentation/index.rst \
	Documentation/internals/db-ctl.rst \
	Documentation/internals/idl.rst \
	Documentation/internals/layers.rst \
	Documentation/intro/install.rst \
	Documentation/topics/packaging.rst \
	Documentation/topics/qos.rst \
	Documentation/topics/testing.rst \
	Documentation/topics/logging.rst \
	Documentation/topics/unixctl.rst \
	Documentation/topics/userspace-checksum-offloading.rst
