import H2JContainer
import H2JJob
import H2JOutputPlan
import H2JSupport

/// The files a dry run lists for a HEIF source: those `ConversionPlan` (the plan
/// `convert` runs and `inspect` shows) would write, each at the path its job gives it,
/// less those whose images the plan refuses. Read from the container alone, in the
/// parent, as `inspect` reads it (the parsers never trap); none when the container
/// cannot be read or its primary is refused (the report then names the primary only).
/// A planned file has no size yet: its width, height and bytes are 0.
enum DryRunOutputs {
    static func files(of job: ConversionJob, reading bytes: ByteSource, options: ConversionOptions) -> [OutputFile] {
        guard let source = try? MinimizedImage.translating(bytes) ?? bytes,
              let structure = try? HEIFStructure.read(from: source),
              let plan = try? ConversionPlan.make(structure, source: source, choices: options.outputChoices, toStream: false,
                                                  maxPixels: options.maxPixels) else { return [] }
        return plan.outputs.filter { $0.refusal == nil }.map { output in
            OutputFile(name: output.plan.name, path: job.path(of: output.plan.name), item: output.plan.items[0], width: 0, height: 0, bytes: 0)
        }
    }
}
