/* The second phase shared by every operator: check the workspace, run the plan, free it. */
#include <stdlib.h>

#include "fake_acl.h"

aclOpExecutor *fake_new_executor(fake_kernel run, uint64_t workspace_size) {
    aclOpExecutor *e = calloc(1, sizeof *e);
    if (e != NULL) {
        e->run = run;
        e->workspace_size = workspace_size;
    }
    return e;
}

/* The executor is single-use, as aclnn's are by default: phase 2 frees it whatever happens. */
aclnnStatus fake_execute(void *workspace, uint64_t workspace_size, aclOpExecutor *executor,
                         aclrtStream stream) {
    (void)stream; /* kernels run synchronously on the host */
    if (executor == NULL)
        return ACLNN_ERR_PARAM_NULLPTR;
    aclnnStatus status = executor->deferred;
    uint64_t need = executor->workspace_size;
    if (status == ACLNN_SUCCESS && (workspace_size < need ||
                                    (need > 0 && !fake_is_device_range(workspace, need))))
        status = ACLNN_ERR_PARAM_INVALID; /* too small, or not device memory */
    if (status == ACLNN_SUCCESS)
        status = executor->run(executor, workspace);
    free(executor);
    return status;
}
