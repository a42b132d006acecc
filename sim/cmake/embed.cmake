# sloshlab_embed_files(<target> <symbol> <files...>): compiles the files' text into
# <target> as sloshlab::embedded::k<symbol>[] (see sim/include/sloshlab/embedded.h).
function(sloshlab_embed_files target symbol)
  set(out "${CMAKE_CURRENT_BINARY_DIR}/embedded_${symbol}.cpp")
  list(JOIN ARGN "|" files_arg)  # "|" survives the command line; the script splits it
  add_custom_command(
    OUTPUT "${out}"
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${out} -DSYMBOL=${symbol} "-DFILES=${files_arg}"
            -P "${SLOSHLAB_EMBED_SCRIPT}"
    DEPENDS ${ARGN} "${SLOSHLAB_EMBED_SCRIPT}"
    COMMENT "Embedding ${symbol}"
    VERBATIM)
  target_sources(${target} PRIVATE "${out}")
endfunction()
