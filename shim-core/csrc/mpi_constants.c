/* Values that MPI defines as preprocessor macros and that differ between
 * implementations (Open MPI, MPICH); exported as link-time constants so the
 * Rust side never hard-codes them. */
#include <mpi.h>

const int mpbridge_mpi_root = MPI_ROOT;
const int mpbridge_mpi_max_port_name = MPI_MAX_PORT_NAME;
const int mpbridge_mpi_max_error_string = MPI_MAX_ERROR_STRING;
const int mpbridge_mpi_success = MPI_SUCCESS;
const int mpbridge_mpi_appnum = MPI_APPNUM;
void *const mpbridge_mpi_in_place = MPI_IN_PLACE;
