# Asn1cHybrid.cmake: asn1c-hybrid as a code-generation step of a CMake build.
#
#   execute_process(COMMAND asn1c-hybrid --cmake-dir
#                   OUTPUT_VARIABLE dir OUTPUT_STRIP_TRAILING_WHITESPACE)
#   list(APPEND CMAKE_MODULE_PATH "${dir}")
#   include(Asn1cHybrid)
#
#   asn1c_hybrid_generate(TARGET name SPECS file_or_dir...
#                         [PDUS Module.Type...] [PROFILE profile.json...]
#                         [BUDGET 20%|bytes] [COST_MODEL auto|measured|units]
#                         [PREFIX p_] [MODE hybrid|compiled|interpreted]
#                         [NAME base] [OUTPUT_DIR dir] [RUNTIME LIBRARY|SOURCES]
#                         [ENCODING ber|der|uper|aper...] [KEEP_ENCODING Module.Type...]
#                         [LAYOUTS N|auto] [LAYOUT_FORM exact|slot] [LENIENT])
#
# makes a static library `name` from the generated C (NAME.h and NAME.c, NAME defaults to
# the target's name, in OUTPUT_DIR, default ${CMAKE_CURRENT_BINARY_DIR}/name).  Link it
# and include "NAME.h".  The runtime comes as the shared library target
# asn1c_hybrid_runtime (RUNTIME LIBRARY, the default: one copy for every spec in the
# program) or as sources written next to the generated code and compiled into `name`
# (RUNTIME SOURCES: --emit-runtime).  LENIENT passes --lenient: the common defects of
# real specifications are accepted with a warning (docs/frontend.md, "Lenient mode").
# ENCODING lists the encoding rules the code carries (--encoding; default all three).
# KEEP_ENCODING names SEQUENCE and SET types whose decoded values keep their TLV as
# received (--keep-encoding: the signed part of a certificate, to hash).  LAYOUTS and
# LAYOUT_FORM are --layouts and --layout-form: fast paths for the layouts of the PDU's
# messages in the PROFILE (one PDUS; docs/layouts.md).  COST_MODEL is --cost-model: units
# makes the hybrid's choice, and so the generated C, the same on every machine; measured
# (what auto picks) calibrates on first use and regenerates when the calibration changes.
#
# The runtime's sources (library or SOURCES) are compiled with ASN1C_HYBRID_RUNTIME_OPTIONS
# after the project's flags.  By default these are the flags of -falign-jumps=1,
# -falign-loops=1 and -fno-reorder-blocks-and-partition that the compiler takes: no padding to
# align jump targets and loops, which leaves the interpreter about 6% smaller and runs no more
# instructions, and no .cold part split off each function, about 1% smaller again.  Every runtime
# source but asn1h_ber.c and asn1h_per.c then takes ASN1C_HYBRID_RUNTIME_BLOCK_OPTIONS, unless the
# project builds for size (-Os or -Oz in CMAKE_C_FLAGS, or the MinSizeRel configuration): by
# default -freorder-blocks-algorithm=simple when the compiler takes it (gcc), basic blocks in
# source order, which leaves the BER interpreter about 3% smaller.  Set either variable
# (empty, or other options) before the first call to choose otherwise.
#
# The generator runs again when a spec, a profile or the compiler changes: the depfile it
# writes names every file it read, its own sources and templates included.  It touches a
# stamp file that stands for the run, and leaves unchanged outputs untouched, so a
# regeneration that changes nothing recompiles nothing (with Ninja and with Make).
# See docs/build-integration.md.

if(CMAKE_VERSION VERSION_LESS 3.20)
  message(FATAL_ERROR "Asn1cHybrid.cmake needs CMake 3.20 or newer (DEPFILE with every generator)")
endif()
include_guard(GLOBAL)
# Depfile paths are taken relative to the build directory with every generator; the
# function below records this setting where it is defined.
cmake_policy(SET CMP0116 NEW)

# The runtime sits beside this file both in the source tree and in the installed package.
get_filename_component(ASN1C_HYBRID_RUNTIME_DIR "${CMAKE_CURRENT_LIST_DIR}/../runtime_c" ABSOLUTE)
find_program(ASN1C_HYBRID_EXECUTABLE asn1c-hybrid DOC "the asn1c-hybrid compiler")

# The runtime as a static library target, made once per build tree.
function(asn1c_hybrid_runtime_library)
  if(TARGET asn1c_hybrid_runtime)
    return()
  endif()
  # CONFIGURE_DEPENDS: an upgraded compiler with other runtime files reconfigures.
  file(GLOB sources CONFIGURE_DEPENDS "${ASN1C_HYBRID_RUNTIME_DIR}/*.c")
  add_library(asn1c_hybrid_runtime STATIC ${sources})
  _asn1c_hybrid_runtime_source_options(${sources})
  target_include_directories(asn1c_hybrid_runtime PUBLIC "${ASN1C_HYBRID_RUNTIME_DIR}")
  target_compile_features(asn1c_hybrid_runtime PUBLIC c_std_99)
  _asn1c_hybrid_link_libm(asn1c_hybrid_runtime)
endfunction()

# The flags of `flags` that the C compiler takes, in `out`.
function(_asn1c_hybrid_known_flags out)
  include(CheckCCompilerFlag)
  set(known_flags "")
  foreach(flag ${ARGN})
    string(MAKE_C_IDENTIFIER "ASN1C_HYBRID_C_HAS${flag}" known)
    check_c_compiler_flag(${flag} ${known})
    if(${known})
      list(APPEND known_flags ${flag})
    endif()
  endforeach()
  set(${out} "${known_flags}" PARENT_SCOPE)
endfunction()

# The runtime's own compile options, on each of its sources: ASN1C_HYBRID_RUNTIME_OPTIONS (by
# default the alignment flags and -fno-reorder-blocks-and-partition, those the C compiler
# takes: gcc all three, clang -falign-loops alone),
# then, but on asn1h_ber.c, asn1h_per.c and in builds for size,
# ASN1C_HYBRID_RUNTIME_BLOCK_OPTIONS (gcc's simple block order; at -Os gcc's own order is the
# smaller).
function(_asn1c_hybrid_runtime_source_options)
  if(NOT DEFINED ASN1C_HYBRID_RUNTIME_OPTIONS)
    _asn1c_hybrid_known_flags(flags -falign-jumps=1 -falign-loops=1
                              -fno-reorder-blocks-and-partition)
    set(ASN1C_HYBRID_RUNTIME_OPTIONS "${flags}" CACHE STRING
        "compile options of the asn1c-hybrid runtime's sources, after the project's flags")
  endif()
  if(NOT DEFINED ASN1C_HYBRID_RUNTIME_BLOCK_OPTIONS)
    _asn1c_hybrid_known_flags(flags -freorder-blocks-algorithm=simple)
    set(ASN1C_HYBRID_RUNTIME_BLOCK_OPTIONS "${flags}" CACHE STRING
        "compile options of the asn1c-hybrid runtime's sources but asn1h_ber.c and \
asn1h_per.c, after the others, unless built for size")
  endif()
  set(block "")
  if(NOT CMAKE_C_FLAGS MATCHES "(^| )-O[sz]( |$)")
    foreach(flag ${ASN1C_HYBRID_RUNTIME_BLOCK_OPTIONS})
      list(APPEND block "$<$<NOT:$<CONFIG:MinSizeRel>>:${flag}>")
    endforeach()
  endif()
  foreach(source ${ARGN})
    set(options ${ASN1C_HYBRID_RUNTIME_OPTIONS})
    if(NOT source MATCHES "asn1h_(ber|per)\\.c$")
      list(APPEND options ${block})
    endif()
    set_source_files_properties(${source} PROPERTIES COMPILE_OPTIONS "${options}")
  endforeach()
endfunction()

function(_asn1c_hybrid_link_libm target)
  find_library(ASN1C_HYBRID_LIBM m)
  if(ASN1C_HYBRID_LIBM)
    target_link_libraries(${target} PUBLIC "${ASN1C_HYBRID_LIBM}")
  endif()
endfunction()

function(asn1c_hybrid_generate)
  cmake_parse_arguments(PARSE_ARGV 0 arg "LENIENT"
    "TARGET;BUDGET;COST_MODEL;PREFIX;MODE;NAME;OUTPUT_DIR;RUNTIME;LAYOUTS;LAYOUT_FORM"
    "SPECS;PDUS;PROFILE;ENCODING;KEEP_ENCODING")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "asn1c_hybrid_generate: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_TARGET OR NOT arg_SPECS)
    message(FATAL_ERROR "asn1c_hybrid_generate: TARGET and SPECS are required")
  endif()
  if(NOT ASN1C_HYBRID_EXECUTABLE)
    message(FATAL_ERROR "asn1c_hybrid_generate: asn1c-hybrid not found; "
                        "set ASN1C_HYBRID_EXECUTABLE")
  endif()
  set(name "${arg_TARGET}")
  if(arg_NAME)
    set(name "${arg_NAME}")
  endif()
  set(outdir "${CMAKE_CURRENT_BINARY_DIR}/${arg_TARGET}")
  if(arg_OUTPUT_DIR)
    get_filename_component(outdir "${arg_OUTPUT_DIR}" ABSOLUTE
                           BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  endif()
  if(NOT arg_RUNTIME)
    set(arg_RUNTIME LIBRARY)
  endif()
  if(NOT arg_RUNTIME MATCHES "^(LIBRARY|SOURCES)$")
    message(FATAL_ERROR "asn1c_hybrid_generate: RUNTIME is LIBRARY or SOURCES, not ${arg_RUNTIME}")
  endif()

  # Absolute paths everywhere: the command runs in the build tree.
  set(specs "")
  foreach(spec IN LISTS arg_SPECS)
    get_filename_component(spec "${spec}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND specs "${spec}")
  endforeach()
  set(options --name "${name}")
  if(arg_MODE)
    list(APPEND options --mode "${arg_MODE}")
  endif()
  if(arg_BUDGET)
    list(APPEND options --budget "${arg_BUDGET}")
  endif()
  if(arg_COST_MODEL)
    list(APPEND options --cost-model "${arg_COST_MODEL}")
  endif()
  if(arg_PREFIX)
    list(APPEND options --prefix "${arg_PREFIX}")
  endif()
  if(arg_LAYOUTS)
    list(APPEND options --layouts "${arg_LAYOUTS}")
  endif()
  if(arg_LAYOUT_FORM)
    list(APPEND options --layout-form "${arg_LAYOUT_FORM}")
  endif()
  if(arg_LENIENT)
    list(APPEND options --lenient)
  endif()
  if(arg_ENCODING)
    list(JOIN arg_ENCODING "," encodings)
    list(APPEND options --encoding "${encodings}")
  endif()
  foreach(pdu IN LISTS arg_PDUS)
    list(APPEND options --pdu "${pdu}")
  endforeach()
  foreach(kept IN LISTS arg_KEEP_ENCODING)
    list(APPEND options --keep-encoding "${kept}")
  endforeach()
  set(profiles "")
  foreach(profile IN LISTS arg_PROFILE)
    get_filename_component(profile "${profile}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND profiles "${profile}")
    list(APPEND options --profile "${profile}")
  endforeach()
  if(arg_RUNTIME STREQUAL "SOURCES")
    list(APPEND options --emit-runtime)
    file(GLOB unused CONFIGURE_DEPENDS "${ASN1C_HYBRID_RUNTIME_DIR}/*.c"
                                     "${ASN1C_HYBRID_RUNTIME_DIR}/*.h")
  endif()

  # The compiler names its outputs; with --name given it does not read the specs.
  execute_process(
    COMMAND "${ASN1C_HYBRID_EXECUTABLE}" compile ${specs} -o "${outdir}" ${options} --list-outputs
    OUTPUT_VARIABLE outputs ERROR_VARIABLE error RESULT_VARIABLE status
    OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "asn1c_hybrid_generate(${arg_TARGET}): ${error}")
  endif()
  string(REPLACE "\n" ";" outputs "${outputs}")

  set(stamp "${outdir}/${name}.stamp")
  set(depfile "${outdir}/${name}.d")
  add_custom_command(
    OUTPUT "${stamp}"
    BYPRODUCTS ${outputs}
    COMMAND "${ASN1C_HYBRID_EXECUTABLE}" compile ${specs} -o "${outdir}" ${options}
            --depfile "${depfile}" --stamp "${stamp}"
    DEPENDS ${specs} ${profiles} "${ASN1C_HYBRID_EXECUTABLE}"
    DEPFILE "${depfile}"
    COMMENT "Generating C from ASN.1 for ${arg_TARGET}"
    VERBATIM)

  # The stamp is a source of the library, so only this target runs the command (no race
  # between targets in parallel builds); its users wait for it through the link.
  add_library(${arg_TARGET} STATIC ${outputs} "${stamp}")
  target_include_directories(${arg_TARGET} PUBLIC "${outdir}")
  target_compile_features(${arg_TARGET} PUBLIC c_std_99)
  if(arg_RUNTIME STREQUAL "LIBRARY")
    asn1c_hybrid_runtime_library()
    target_link_libraries(${arg_TARGET} PUBLIC asn1c_hybrid_runtime)
  else()
    set(runtime ${outputs})
    list(FILTER runtime INCLUDE REGEX "/asn1h_[^/]*\\.c$")
    _asn1c_hybrid_runtime_source_options(${runtime})
    _asn1c_hybrid_link_libm(${arg_TARGET})
  endif()
endfunction()
