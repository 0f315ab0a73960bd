// One controller, as the rest of kctl sees it: the parts each shared layer drives, joined. Each
// part's shape is defined by the layer that uses it (reconcile/part.ts for planning, and so on);
// a controller folder's index.ts fills them in, and registry.ts lists the controllers.
import type {ApplyPart} from '../apply/part.js'
import type {PlanPart} from '../reconcile/part.js'

export interface ControllerDescriptor extends PlanPart, ApplyPart {}
