// `kctl version` (and `kctl --version`): kctl's own version and the Kubernetes release whose
// kube-controller-manager it plans for, as `kubectl version` names its client and server.
import {Flags} from '@oclif/core'

import {BaseCommand} from '../cli/base.js'
import {renderDocument} from '../render/document.js'
import {KUBERNETES_VERSION} from '../reconcile/hash/pod-template-types.js'

export default class Version extends BaseCommand {
  static override usage = '<%= command.id %> [-o table|json|yaml]'
  static override summary = "Print kctl's version and the Kubernetes version whose controllers it plans for."
  static override examples = [
    {description: 'As a line each:', command: '<%= config.bin %> <%= command.id %>'},
    {description: 'As JSON, for scripts:', command: '<%= config.bin %> <%= command.id %> -o json'},
  ]

  static override flags = {
    output: Flags.string({char: 'o', options: ['table', 'json', 'yaml'], summary: 'Output format: table (two lines of text, the default), json, yaml.'}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parse(Version)
    const format = flags.output ?? 'table'
    this.outputFormat({...flags, output: format})
    const doc = {kctl: this.config.version, kubernetes: KUBERNETES_VERSION, node: process.version, platform: `${this.config.platform}-${this.config.arch}`}
    if (format === 'table') {
      this.print(`${this.config.userAgent}\nKubernetes ${KUBERNETES_VERSION} (the kube-controller-manager whose controllers kctl plans)\n`)
    } else {
      this.print(renderDocument(doc, format as 'json' | 'yaml'))
    }
  }
}
