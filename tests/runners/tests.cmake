# The runners against real daemons (tests/runners/runner_test.py): a real sshd on
# 127.0.0.1 and a real single-node Slurm, each started once by a fixture test with
# generated keys and configuration and stopped by another; every case is its own
# test. Without the daemons' packages the fixtures write why, and the cases skip
# (exit 77) with that line.
find_package(Python3 COMPONENTS Interpreter)
if(Python3_FOUND)
  set(runner_dir ${CMAKE_CURRENT_LIST_DIR})
  set(sshd_dir ${CMAKE_BINARY_DIR}/runners-sshd)
  set(slurm_dir ${CMAKE_BINARY_DIR}/runners-slurm)
  add_test(NAME runners.sshd.start COMMAND bash ${runner_dir}/sshd.sh start ${sshd_dir})
  add_test(NAME runners.sshd.stop COMMAND bash ${runner_dir}/sshd.sh stop ${sshd_dir})
  add_test(NAME runners.slurm.start COMMAND bash ${runner_dir}/slurm_cluster.sh start ${slurm_dir})
  add_test(NAME runners.slurm.stop COMMAND bash ${runner_dir}/slurm_cluster.sh stop ${slurm_dir})
  set_tests_properties(runners.sshd.start PROPERTIES FIXTURES_SETUP runners_sshd TIMEOUT 60 LABELS runners)
  set_tests_properties(runners.sshd.stop PROPERTIES FIXTURES_CLEANUP runners_sshd TIMEOUT 60 LABELS runners)
  set_tests_properties(runners.slurm.start PROPERTIES FIXTURES_SETUP runners_slurm TIMEOUT 60 LABELS runners)
  set_tests_properties(runners.slurm.stop PROPERTIES FIXTURES_CLEANUP runners_slurm TIMEOUT 60 LABELS runners)
  set(runner_env "TESSEL=$<TARGET_FILE:tessel>;SOURCE=${PROJECT_SOURCE_DIR};SSHD_DIR=${sshd_dir};SLURM_DIR=${slurm_dir}")
  foreach(case protocol ssh.run_identical ssh.tune_identical ssh.unreachable ssh.auth_refused ssh.no_gpu
          ssh.version_mismatch ssh.not_a_runner ssh.killed ssh.cancelled slurm.run_identical slurm.tune_identical
          slurm.queue_timeout slurm.no_partition slurm.no_gpu slurm.killed slurm.tune_array
          slurm.array_queue_timeout slurm.array_killed)
    add_test(NAME runners.${case} COMMAND ${Python3_EXECUTABLE} ${runner_dir}/runner_test.py ${case})
    set_tests_properties(runners.${case} PROPERTIES TIMEOUT 120 LABELS runners SKIP_RETURN_CODE 77
      ENVIRONMENT "${runner_env}")
    if(case MATCHES "^ssh")
      set_tests_properties(runners.${case} PROPERTIES FIXTURES_REQUIRED runners_sshd RESOURCE_LOCK runners_sshd_kill)
    elseif(case MATCHES "^slurm")
      # One Slurm job at a time: the killed case cancels the runner's running job.
      set_tests_properties(runners.${case} PROPERTIES FIXTURES_REQUIRED runners_slurm RESOURCE_LOCK runners_slurm)
    endif()
  endforeach()
endif()
