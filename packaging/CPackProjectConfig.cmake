# Read by cpack for each generator it runs (CPACK_PROJECT_CONFIG_FILE).
#
# Paths are compiled into the programs from CMAKE_INSTALL_PREFIX (the app
# finds the CUDA recorder module under <prefix>/lib/...), and the Debian
# package installs to /usr (CPack's default for DEB): the two must agree.
# /usr is also the only right place for a Debian package: dpkg's triggers
# refresh the desktop, MIME and icon caches under /usr/share, and packages
# may not own files in /usr/local.
if(CPACK_GENERATOR STREQUAL "DEB" AND NOT CPACK_GAPSCOPE_CONFIGURED_PREFIX STREQUAL "/usr")
  message(FATAL_ERROR
    "this build was configured for ${CPACK_GAPSCOPE_CONFIGURED_PREFIX}; a Debian package installs "
    "to /usr. Configure it with -DCMAKE_INSTALL_PREFIX=/usr, rebuild, then run cpack.")
endif()
