# rhel/: RPM packaging.
