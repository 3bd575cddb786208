# Read by cpack for each generator it runs (CPACK_PROJECT_CONFIG_FILE).
#
# Paths are compiled into the programs from CMAKE_INSTALL_PREFIX (the app
# finds the CUDA recorder module under <prefix>/lib/...), so the package
# installs exactly where the build was configured to. For a Debian package
# that must be /usr: dpkg's triggers refresh the desktop, MIME and icon
# caches under /usr/share only, and packages may not own files in /usr/local.
if(CPACK_GENERATOR STREQUAL "DEB" AND NOT CPACK_PACKAGING_INSTALL_PREFIX STREQUAL "/usr")
  message(FATAL_ERROR
    "this build installs to ${CPACK_PACKAGING_INSTALL_PREFIX}; a Debian package must install "
    "to /usr. Configure the build with -DCMAKE_INSTALL_PREFIX=/usr, rebuild, then run cpack.")
endif()
