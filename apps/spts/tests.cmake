# CI cases for spts: small generated matrices of every kind in both orders, every variant the
# platform has, 1, 2 and 4 PEs, over p2p and gda. Each run checks x against x_ref and exits
# non-zero on a mismatch, so the exit code is the test. (inputs.cmake has made this directory's
# tests reachable from the top: enable_testing and TEST_INCLUDE_FILES.)
set(SPTS_GIORUN ${CMAKE_BINARY_DIR}/bin/giorun)
gio_serialize_gpu_tests()  # cmake/GIOTestLocks.cmake
set(SPTS_ENV "GIO_TIMEOUT_MS=60000")
set(SPTS_DATA ${CMAKE_CURRENT_SOURCE_DIR}/testdata)

# spts_test(name np transport args...): transport p2p, gda or proxy (ikn).
function(spts_test name np transport)
  add_test(NAME app.spts.${name} COMMAND ${SPTS_GIORUN} -n ${np} $<TARGET_FILE:spts> --reps 2 --no-refs
           --timeout 60 ${ARGN})
  set_tests_properties(app.spts.${name} PROPERTIES ENVIRONMENT "${SPTS_ENV};GIO_TRANSPORT=${transport}"
                       TIMEOUT 300 PROCESSORS ${np} LABELS spts)
  # On a GPU, PEs over gda share it with their softnics' copies: two such tests at once slow each
  # other past the timeout (time slices between processes).
  if(transport STREQUAL "gda" AND NOT GIO_PLATFORM STREQUAL "host")
    set_tests_properties(app.spts.${name} PROPERTIES RUN_SERIAL TRUE)
  endif()
endfunction()

# Small inputs of every kind: deep ones (natural grid, banded chain) and shallow ones (random
# order, road, power law).
set(spts_kinds grid2d:n=24 grid3d:n=8 road:rows=700 rmat:scale=9 banded:n=300,band=3)
foreach(g ${spts_kinds})
  string(REGEX REPLACE ":.*" "" kind ${g})
  foreach(ord natural random)
    spts_test(single.${kind}.${ord}.np1 1 p2p --variant single --gen ${g} --order ${ord})
    spts_test(gio.signal.${kind}.${ord}.np2 2 p2p --variant gio --exchange signal --gen ${g} --order ${ord})
    spts_test(gio.queue.${kind}.${ord}.np2 2 p2p --variant gio --exchange queue --gen ${g} --order ${ord})
  endforeach()
  spts_test(gio.signal.${kind}.random.np4 4 p2p --variant gio --exchange signal --gen ${g} --order random)
  spts_test(gio.queue.${kind}.natural.np4 4 p2p --variant gio --exchange queue --gen ${g})
  spts_test(levelset.${kind}.random.np2 2 p2p --variant levelset --gen ${g} --order random)
endforeach()

# The level-ordered renumbering (--renumber level: each PE's rows by level, every level split over
# the PEs, so a PE's rows depend on other PEs' at every level): every kind, both orders, float and
# double, 1 to 4 PEs, over p2p and gda. And L's own order with contiguous blocks (--renumber none),
# which --renumber auto keeps where levels are wide.
foreach(g ${spts_kinds})
  string(REGEX REPLACE ":.*" "" kind ${g})
  foreach(ord natural random)
    spts_test(single.renumber.${kind}.${ord}.np1 1 p2p --variant single --renumber level --gen ${g} --order ${ord})
    spts_test(single.renumber.float.${kind}.${ord}.np1 1 p2p --variant single --renumber level --type float
              --gen ${g} --order ${ord})
    spts_test(gio.renumber.float.${kind}.${ord}.np2 2 p2p --variant gio --renumber level --type float --gen ${g}
              --order ${ord})
    spts_test(gio.renumber.gda.${kind}.${ord}.np4 4 gda --variant gio --renumber level --gen ${g} --order ${ord})
    spts_test(single.renumber-none.${kind}.${ord}.np1 1 p2p --variant single --renumber none --gen ${g} --order ${ord})
  endforeach()
  spts_test(gio.renumber.signal.${kind}.np3 3 p2p --variant gio --renumber level --exchange signal --gen ${g})
  # Each PE's block of L's rows by level (--renumber blocks), by rows and by nonzeros, at 2 to 4 PEs.
  spts_test(gio.renumber-blocks.${kind}.natural.np2 2 p2p --variant gio --renumber blocks --gen ${g})
  spts_test(gio.renumber-blocks.nnz.${kind}.random.np3 3 p2p --variant gio --renumber blocks --balance nnz
            --type float --gen ${g} --order random)
  spts_test(gio.renumber-blocks.gda.${kind}.natural.np4 4 gda --variant gio --renumber blocks --gen ${g})
  spts_test(gio.renumber.queue.gda.float.${kind}.np2 2 gda --variant gio --renumber level --exchange queue
            --type float --gen ${g})
endforeach()
# Every dependency through global memory (--chunk-deps global), and the shared-memory path on a
# chain longer than a work-group, in lockstep waves (the emulator's mode for GPUs without
# independent thread scheduling): a lane polls a wave-mate's word without blocking on it.
spts_test(single.chunk-global.banded.np1 1 p2p --variant single --chunk-deps global --gen banded:n=300,band=3)
spts_test(gio.chunk-global.grid2d.np2 2 p2p --variant gio --chunk-deps global --renumber level --gen grid2d:n=24)
spts_test(single.chunk-shared.lockstep.banded.np1 1 p2p --variant single --gen banded:n=700,band=1 --block 32)
set_property(TEST app.spts.single.chunk-shared.lockstep.banded.np1 APPEND PROPERTY ENVIRONMENT
             GIO_HOST_WAVE_LOCKSTEP=1)
spts_test(gio.renumber.store.lockstep.banded.np2 2 p2p --variant gio --exchange store --renumber level
          --gen banded:n=700,band=2 --block 32)
set_property(TEST app.spts.gio.renumber.store.lockstep.banded.np2 APPEND PROPERTY ENVIRONMENT
             GIO_HOST_WAVE_LOCKSTEP=1)
# --renumber tiles (one PE; several PEs take level order): every kind, both types.
foreach(g ${spts_kinds})
  string(REGEX REPLACE ":.*" "" kind ${g})
  spts_test(single.tiles.${kind}.natural.np1 1 p2p --variant single --renumber tiles --gen ${g})
  spts_test(gio.tiles.float.${kind}.random.np1 1 p2p --variant gio --renumber tiles --type float --gen ${g} --order random)
endforeach()
# The device analysis (--analysis compare: the device's levels, order and tiles' chunks must equal
# the host's, and the solve pass its check): every kind, both orders, level order and tiles, float
# and double, single and gio at one PE; the levels kernel with each number of rows a thread, and in
# lockstep waves. The host analysis (--analysis host) still solves.
foreach(g ${spts_kinds})
  string(REGEX REPLACE ":.*" "" kind ${g})
  foreach(ord natural random)
    spts_test(single.analysis.level.${kind}.${ord}.np1 1 p2p --variant single --renumber level --analysis compare
              --gen ${g} --order ${ord})
    spts_test(single.analysis.tiles.float.${kind}.${ord}.np1 1 p2p --variant single --renumber tiles --type float
              --analysis compare --gen ${g} --order ${ord})
  endforeach()
  spts_test(gio.analysis.tiles.${kind}.np1 1 p2p --variant gio --renumber tiles --analysis compare --gen ${g})
  spts_test(gio.analysis.level.float.gda.${kind}.random.np1 1 gda --variant gio --renumber level --type float
            --analysis compare --gen ${g} --order random)
  spts_test(single.analysis-host.tiles.${kind}.np1 1 p2p --variant single --renumber tiles --analysis host --gen ${g})
endforeach()
foreach(k 1 2 4)
  spts_test(single.analysis-rows${k}.banded.np1 1 p2p --variant single --renumber level --analysis compare
            --analysis-rows ${k} --gen banded:n=700,band=2)
  spts_test(single.analysis-rows${k}.tiles.grid2d.np1 1 p2p --variant single --renumber tiles --analysis compare
            --analysis-rows ${k} --gen grid2d:n=70 --block 32)
endforeach()
# A gated thread's polls with sleeps between them (--analysis-backoff).
spts_test(single.analysis-backoff.tiles.grid2d.np1 1 p2p --variant single --renumber tiles --analysis compare
          --analysis-backoff 400 --gen grid2d:n=70)
# Sizes that reach the sort's other paths: 90,000 rows in 599 levels (two passes over 176 tiles,
# the last one partial, and the counts' scan over tiles of tiles), 2,000 levels (three passes) and
# a single level (no pass: the order is L's).
spts_test(single.analysis.passes.tiles.grid2d.np1 1 p2p --variant single --renumber tiles --analysis compare
          --gen grid2d:n=300)
spts_test(single.analysis.passes.level.banded.np1 1 p2p --variant single --renumber level --analysis compare
          --gen banded:n=2000,band=2)
foreach(rn level tiles)
  spts_test(single.analysis.one-level.${rn}.np1 1 p2p --variant single --renumber ${rn} --analysis compare
            --gen banded:n=1)
endforeach()
# The device line gives the analysis's phases and the report the prep without the uploads.
spts_test(single.analysis.phases.np1 1 p2p --variant single --renumber tiles --gen grid2d:n=40)
set_tests_properties(app.spts.single.analysis.phases.np1 PROPERTIES PASS_REGULAR_EXPRESSION
  "analysis on the device [0-9.]+ ms \\(arena [0-9.]+, levels [0-9.]+, sort [0-9.]+, order [0-9.]+, tiles [0-9.]+\\).*prep - uploads +[0-9.]+ s.*check .*: PASS")
spts_test(single.analysis.lockstep.grid2d.np1 1 p2p --variant single --renumber tiles --analysis compare
          --gen grid2d:n=50 --block 32)
set_property(TEST app.spts.single.analysis.lockstep.grid2d.np1 APPEND PROPERTY ENVIRONMENT GIO_HOST_WAVE_LOCKSTEP=1)
spts_test(single.analysis.lockstep.banded.np1 1 p2p --variant single --renumber level --analysis compare
          --analysis-rows 1 --gen banded:n=700,band=1 --block 32)
set_property(TEST app.spts.single.analysis.lockstep.banded.np1 APPEND PROPERTY ENVIRONMENT GIO_HOST_WAVE_LOCKSTEP=1)
# The comparison can fail: the device analysis gives the last row a level too many (the order
# stays a valid one, so the solve itself passes); the run must exit 1 saying which levels differ.
foreach(rn level tiles)
  add_test(NAME app.spts.single.inject-analysis-error.${rn}.np1
           COMMAND bash ${GIO_APP_COMMON}/expect_fail.sh ${SPTS_GIORUN} -n 1 $<TARGET_FILE:spts>
                   --variant single --renumber ${rn} --analysis compare --inject-analysis-error
                   --gen grid2d:n=24 --reps 1 --no-refs)
  set_tests_properties(app.spts.single.inject-analysis-error.${rn}.np1 PROPERTIES ENVIRONMENT "${SPTS_ENV}"
                       PASS_REGULAR_EXPRESSION "the device found 48 levels, the host 47.*the check caught"
                       TIMEOUT 300 LABELS spts)
endforeach()
spts_test(single.tiles.grid2d.block32.np1 1 p2p --variant single --renumber tiles --gen grid2d:n=70 --block 32)
spts_test(single.tiles.lockstep.grid2d.np1 1 p2p --variant single --renumber tiles --gen grid2d:n=50 --block 128)
set_property(TEST app.spts.single.tiles.lockstep.grid2d.np1 APPEND PROPERTY ENVIRONMENT GIO_HOST_WAVE_LOCKSTEP=1)
spts_test(gio.tiles.grid2d.np2 2 p2p --variant gio --renumber tiles --gen grid2d:n=24)
spts_test(single.poll-batch1.grid3d.np1 1 p2p --variant single --poll-batch 1 --gen grid3d:n=8)
spts_test(gio.poll-batch2.float.road.random.np3 3 p2p --variant gio --poll-batch 2 --type float --gen road:rows=700 --order random)
spts_test(gio.renumber-none.signal.grid2d.np2 2 p2p --variant gio --renumber none --exchange signal --gen grid2d:n=24)

# PE counts, kernels, types and balance the loop above does not reach.
spts_test(gio.signal.grid2d.np1 1 p2p --variant gio --exchange signal --gen grid2d:n=24)
# Rows taken by level instead of in natural order (the default).
spts_test(single.rows-level.grid2d.np1 1 p2p --variant single --rows level --gen grid2d:n=24)
spts_test(gio.signal.rows-level.grid3d.np2 2 p2p --variant gio --exchange signal --rows level --gen grid3d:n=8)
spts_test(gio.queue.rows-level.rmat.random.np4 4 p2p --variant gio --exchange queue --rows level
          --gen rmat:scale=9 --order random)
spts_test(gio.queue.grid2d.random.np1 1 p2p --variant gio --exchange queue --gen grid2d:n=24 --order random)
spts_test(gio.signal.warp.rmat.np2 2 p2p --variant gio --exchange signal --kernel warp --gen rmat:scale=9 --order random)
spts_test(gio.queue.warp.grid3d.np4 4 p2p --variant gio --kernel warp --exchange queue --gen grid3d:n=8)
spts_test(single.warp.road.np1 1 p2p --variant single --kernel warp --gen road:rows=700)
spts_test(gio.signal.float.grid2d.np2 2 p2p --variant gio --exchange signal --type float --gen grid2d:n=24 --order random)
spts_test(gio.queue.float.rmat.np4 4 p2p --variant gio --type float --exchange queue --gen rmat:scale=9)
spts_test(gio.signal.nnz.rmat.np4 4 p2p --variant gio --exchange signal --balance nnz --gen rmat:scale=9 --order random)
spts_test(gio.signal.pes3.grid2d.np3 3 p2p --variant gio --exchange signal --gen grid2d:n=24 --order random)
spts_test(levelset.grid2d.np1 1 p2p --variant levelset --gen grid2d:n=24)
spts_test(levelset.float.grid3d.np4 4 p2p --variant levelset --type float --gen grid3d:n=8)
spts_test(gio.signal.file.np2 2 p2p --variant gio --exchange signal --matrix ${SPTS_DATA}/small.mtx)
spts_test(single.file.random.np1 1 p2p --variant single --matrix ${SPTS_DATA}/small.mtx --order random)

# Lanes of one wave that reach the queue's send together in separate groups (a divergent wave; the
# emulator's lockstep mode makes such groups) once shared one stage and overwrote each other's
# entries: components were lost and the owner waited for them until the timeout.
spts_test(gio.queue.lockstep.grid2d.random.np2 2 p2p --variant gio --exchange queue --gen grid2d:n=64
          --order random --block 32 --reps 3)
set_property(TEST app.spts.gio.queue.lockstep.grid2d.random.np2 APPEND PROPERTY ENVIRONMENT
             GIO_HOST_WAVE_LOCKSTEP=1)

# --rows senders: the rows other PEs wait for, and what they depend on, first.
spts_test(gio.atomic.senders.road.natural.np4 4 p2p --variant gio --exchange atomic --rows senders --gen road:rows=2000)
spts_test(gio.queue.senders.grid2d.np2 2 p2p --variant gio --exchange queue --rows senders --gen grid2d:n=32)
spts_test(gio.signal.senders.warp.rmat.random.np3 3 p2p --variant gio --exchange signal --rows senders --kernel warp
          --gen rmat:scale=9 --order random)
spts_test(gio.signal.senders.gda.road.np2 2 gda --variant gio --exchange signal --rows senders --gen road:rows=700)

# The store exchange (the word stored into each peer's xw through shmem_ptr), and its refusal
# where a peer is not load/store reachable (gda: a NIC between the PEs).
spts_test(gio.store.grid2d.random.np2 2 p2p --variant gio --exchange store --gen grid2d:n=24 --order random)
spts_test(gio.store.road.natural.np4 4 p2p --variant gio --exchange store --gen road:rows=2000)
spts_test(gio.store.warp.rmat.random.np3 3 p2p --variant gio --exchange store --kernel warp --gen rmat:scale=9
          --order random)
spts_test(gio.store.double.senders.road.random.np2 2 p2p --variant gio --exchange store --rows senders
          --gen road:rows=700 --order random)
add_test(NAME app.spts.gio.store.gda-refused.np2
         COMMAND bash ${GIO_APP_COMMON}/expect_error.sh 2
                 "spts: --exchange store needs every PE's memory load/store reachable from every other \\(shmem_ptr\\); PE [01]'s is not from PE [01]"
                 ${SPTS_GIORUN} -n 2 $<TARGET_FILE:spts> --variant gio --exchange store --gen grid2d:n=16 --reps 1 --no-refs)
set_tests_properties(app.spts.gio.store.gda-refused.np2 PROPERTIES ENVIRONMENT "${SPTS_ENV};GIO_TRANSPORT=gda"
                     TIMEOUT 60 PROCESSORS 2 LABELS spts)

# --probe-remote-ready: solves with only this PE's rows reset; x is checked after them, so a probe
# solve that read a stale or missing component fails the run.
foreach(c "2;road:rows=700;random" "3;grid2d:n=24;natural")
  list(GET c 0 np)
  list(GET c 1 g)
  list(GET c 2 ord)
  add_test(NAME app.spts.gio.probe-ready.np${np}
           COMMAND bash ${GIO_APP_COMMON}/expect_output.sh "remote-ready .* ms"
                   ${SPTS_GIORUN} -n ${np} $<TARGET_FILE:spts> --reps 2 --no-refs --timeout 60 --variant gio
                   --probe-remote-ready --gen ${g} --order ${ord})
  set_tests_properties(app.spts.gio.probe-ready.np${np} PROPERTIES ENVIRONMENT "${SPTS_ENV};GIO_TRANSPORT=p2p"
                       TIMEOUT 300 PROCESSORS ${np} LABELS spts)
endforeach()

# The atomic exchange (uint64_atomic_set of the component's word).
spts_test(gio.atomic.grid2d.random.np2 2 p2p --variant gio --exchange atomic --gen grid2d:n=24 --order random)
spts_test(gio.atomic.rmat.np4 4 p2p --variant gio --exchange atomic --gen rmat:scale=9)
spts_test(gio.atomic.float.road.random.np3 3 p2p --variant gio --exchange atomic --type float --gen road:rows=700
          --order random)
spts_test(gio.atomic.gda.grid3d.random.np2 2 gda --variant gio --exchange atomic --gen grid3d:n=8 --order random)

# --exchange auto (the default) takes the store exchange where every peer is mapped (p2p) and the
# signal exchange where one is reached through a NIC (gda).
foreach(t p2p:store gda:signal)
  string(REPLACE ":" ";" tx ${t})
  list(GET tx 0 transport)
  list(GET tx 1 expect)
  add_test(NAME app.spts.gio.auto.${transport}.np2
           COMMAND bash ${GIO_APP_COMMON}/expect_output.sh "; ${expect} exchange"
                   ${SPTS_GIORUN} -n 2 $<TARGET_FILE:spts> --reps 2 --no-refs --timeout 60 --variant gio
                   --gen grid2d:n=24 --order random)
  set_tests_properties(app.spts.gio.auto.${transport}.np2 PROPERTIES
                       ENVIRONMENT "${SPTS_ENV};GIO_TRANSPORT=${transport}" TIMEOUT 300 PROCESSORS 2 LABELS spts)
  if(transport STREQUAL "gda" AND NOT GIO_PLATFORM STREQUAL "host")
    set_tests_properties(app.spts.gio.auto.${transport}.np2 PROPERTIES RUN_SERIAL TRUE)
  endif()
endforeach()

# Over gda (the software ConnectX): the components travel as NIC operations.
foreach(x signal queue)
  spts_test(gio.${x}.gda.grid2d.random.np2 2 gda --variant gio --exchange ${x} --gen grid2d:n=24 --order random)
  spts_test(gio.${x}.gda.road.np4 4 gda --variant gio --exchange ${x} --gen road:rows=700)
endforeach()
spts_test(gio.queue.warp.gda.grid3d.np2 2 gda --variant gio --kernel warp --exchange queue --gen grid3d:n=8)
spts_test(levelset.gda.banded.np2 2 gda --variant levelset --gen banded:n=300,band=3 --order random)

# ikn (gio's solve, every peer through the CPU proxy over libfabric shm) where libgio has the proxy:
# each exchange at 2 PEs on a shallow input (many components cross PEs), and 1 PE (no peers).
if(TARGET gio_proxy_fabric)
  spts_test(ikn.signal.grid2d.random.np1 1 proxy --variant ikn --exchange signal --gen grid2d:n=24 --order random)
  foreach(x signal atomic queue)
    spts_test(ikn.${x}.grid2d.random.np2 2 proxy --variant ikn --exchange ${x} --gen grid2d:n=24 --order random)
  endforeach()
  spts_test(ikn.signal.warp.float.rmat.np2 2 proxy --variant ikn --exchange signal --kernel warp --type float --gen rmat:scale=9)
endif()
# Another GIO_TRANSPORT would run gio's exchange under ikn's name: the app must refuse (exit 2)
# before shmem_init, naming the value. No libfabric is needed to get there.
add_test(NAME app.spts.ikn.other-transport.np2
         COMMAND bash ${GIO_APP_COMMON}/expect_error.sh 2
                 "spts: --variant ikn needs GIO_TRANSPORT=proxy.*it is \"p2p\""
                 ${SPTS_GIORUN} -n 2 $<TARGET_FILE:spts> --variant ikn --gen grid2d:n=16 --reps 1 --no-refs)
set_tests_properties(app.spts.ikn.other-transport.np2 PROPERTIES ENVIRONMENT "${SPTS_ENV};GIO_TRANSPORT=p2p"
                     TIMEOUT 60 PROCESSORS 2 LABELS spts)

# The check can fail: one perturbed component must make the run exit with 1 and report FAIL (the
# sync-free solves renumbered by level and in L's order).
foreach(v gio levelset single)
  add_test(NAME app.spts.${v}.inject-error.np2
           COMMAND bash ${GIO_APP_COMMON}/expect_fail.sh ${SPTS_GIORUN} -n 2 $<TARGET_FILE:spts>
                   --variant ${v} --gen grid2d:n=16 --reps 1 --no-refs --inject-error)
  set_tests_properties(app.spts.${v}.inject-error.np2 PROPERTIES ENVIRONMENT "${SPTS_ENV}" TIMEOUT 300
                       PROCESSORS 2 LABELS spts)
endforeach()
foreach(c "gio;level;4" "gio;none;2" "single;level;1" "single;none;1" "single;tiles;1")
  list(GET c 0 v)
  list(GET c 1 rn)
  list(GET c 2 np)
  add_test(NAME app.spts.${v}.inject-error.renumber-${rn}.np${np}
           COMMAND bash ${GIO_APP_COMMON}/expect_fail.sh ${SPTS_GIORUN} -n ${np} $<TARGET_FILE:spts>
                   --variant ${v} --renumber ${rn} --gen grid3d:n=8 --reps 1 --no-refs --inject-error)
  set_tests_properties(app.spts.${v}.inject-error.renumber-${rn}.np${np} PROPERTIES ENVIRONMENT "${SPTS_ENV}"
                       TIMEOUT 300 PROCESSORS ${np} LABELS spts)
endforeach()

# Input errors: a clear message and exit code 2 before any kernel runs.
function(spts_bad_input name regex)
  add_test(NAME app.spts.input.${name} COMMAND ${SPTS_GIORUN} -n 1 $<TARGET_FILE:spts> ${ARGN})
  set_tests_properties(app.spts.input.${name} PROPERTIES PASS_REGULAR_EXPRESSION "${regex}"
                       ENVIRONMENT "${SPTS_ENV}" TIMEOUT 60 LABELS spts)
endfunction()
spts_bad_input(zero_diag "zero_diag.mtx.*row 3" --matrix ${SPTS_DATA}/zero_diag.mtx)
spts_bad_input(bad_entry "bad_entry.mtx:5: malformed column" --matrix ${SPTS_DATA}/bad_entry.mtx)
spts_bad_input(missing_file "nope.mtx" --matrix ${SPTS_DATA}/nope.mtx)
spts_bad_input(bad_gen "unknown|kind" --gen hexagon:n=4)
spts_bad_input(analysis_rows "--analysis-rows is 1, 2, 4 or 8 \\(got 3\\)" --analysis-rows 3 --gen grid2d:n=8)
spts_bad_input(analysis_backoff "--analysis-backoff needs an integer >= 0 \\(got \"-3\"\\)" --analysis-backoff -3
               --gen grid2d:n=8)
spts_bad_input(analysis "--analysis is device \\| host \\| compare \\(got \"gpu\"\\)" --analysis gpu --gen grid2d:n=8)
spts_bad_input(ikn_with_gio "ikn cannot share a run with gio or levelset" --variant gio,ikn --gen grid2d:n=8)
spts_bad_input(probe_levelset "--probe-remote-ready times the distributed sync-free solve \\(gio, ikn\\), not --variant levelset"
               --variant gio,levelset --probe-remote-ready --gen grid2d:n=8)
if(GIO_PLATFORM STREQUAL "host")
  spts_bad_input(no_vendor_on_host "no vendor sparse library" --variant cusparse --gen grid2d:n=8)
else()
  foreach(ord natural random)
    spts_test(cusparse.grid2d.${ord}.np1 1 p2p --variant cusparse --gen grid2d:n=64 --order ${ord})
  endforeach()
  spts_test(cusparse.float.road.np1 1 p2p --variant cusparse --type float --gen road:rows=5000)
endif()
