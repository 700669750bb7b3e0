"""The order each everyday command loads our modules in: written by ``scripts/loadorder``, which
runs each command on a small project and notes it; ``tests/shipping/test_loadorder.py`` holds this
file to what a run records. Do not edit it by hand: run the script.

``entry`` loads a command's modules from here before it runs (``quickimport.preload``). Each name
is under ``hookweave.``, dependencies before the modules that import them. A module a command
no longer needs costs a little time; one it needs and is not here loads by ``import``."""

ORDER = {
    "status": (
        "core.files core.files.quickimport core core.cli core.cli.entry core.cli.loadorder "
        "core.formats core.formats.lazypattern core.formats.textsafe core.cli.console core.errors "
        "core.cli.common core.cli.usage core.cli.group core.cli.app core.reading core.files.paths "
        "core.model core.formats.fieldtuple core.model.findings core.reading.projects "
        "core.cli.listing core.files.filecheck core.files.readcontext core.files.filelock "
        "core.files.fileio core.formats.jsonlite core.formats.tomlplain core.model.names "
        "core.model.record core.reading.scopes core.reading.standins core.contract "
        "core.contract.entrypoints core.contract.abstractness core.model.jsonkinds "
        "core.model.render core.contract.host core.contract.registry core.contract.builtin "
        "core.usecases core.usecases.selection core.verify core.verify.builtin_records "
        "core.contract.reads core.contract.description core.contract.skipped core.contract.shapes "
        "core.contract.yamlfile core.contract.describe hosts core.files.layerfiles "
        "core.model.runnable "
    ),
    "verify": (
        "core.files core.files.quickimport core core.cli core.cli.entry core.cli.loadorder "
        "core.formats core.formats.lazypattern core.formats.textsafe core.cli.console core.errors "
        "core.cli.common core.cli.usage core.cli.group core.cli.app core.files.paths core.reading "
        "core.model core.formats.fieldtuple core.model.findings core.reading.projects "
        "core.cli.verifying core.files.filecheck core.files.readcontext core.files.filelock "
        "core.files.fileio core.verify core.formats.jsonlite core.formats.tomlplain "
        "core.model.names core.model.record core.reading.scopes core.contract "
        "core.contract.abstractness core.model.jsonkinds core.model.render core.contract.host "
        "core.verify.duplicates core.formats.patch core.plan core.plan.merge core.plan.envmerge "
        "core.verify.env core.verify.reports core.verify.registrations core.verify.hostreport "
        "core.usecases core.usecases.selection core.contract.entrypoints core.contract.registry "
        "core.contract.builtin hosts core.contract.reads core.contract.description "
        "core.contract.skipped core.contract.shapes core.contract.yamlfile core.contract.describe "
        "core.files.layerfiles core.formats.jsontext core.model.runnable core.reading.standins "
        "core.verify.readers core.verify.crossreads core.verify.builtin_records "
        "core.verify.movedlayers core.cli.verifyfold core.cli.verifytext "
    ),
    "install": (
        "core.files core.files.quickimport core core.cli core.cli.entry core.cli.loadorder "
        "core.formats core.formats.lazypattern core.formats.textsafe core.cli.console core.errors "
        "core.cli.common core.cli.usage core.cli.group core.cli.app core.cli.installing "
        "core.files.paths core.files.filecheck core.files.readcontext core.files.filelock "
        "core.files.fileio core.model core.model.loading core.usecases core.formats.fieldtuple "
        "core.model.findings core.reading core.reading.projects core.usecases.selection "
        "core.usecases.api core.contract core.contract.entrypoints core.contract.abstractness "
        "core.formats.jsonlite core.model.jsonkinds core.model.render core.contract.host "
        "core.contract.registry core.contract.builtin templates core.formats.tomlplain "
        "core.formats.tomlload core.model.names core.model.bundle core.model.manifestcheck "
        "core.model.commandcheck core.model.manifesthooks core.model.manifest hosts "
        "core.contract.reads core.contract.description core.contract.skipped core.contract.shapes "
        "core.contract.yamlfile core.contract.describe core.files.layerfiles core.model.record "
        "core.reading.scopes core.usecases.transaction core.usecases.installer "
        "core.usecases.mistakes core.plan core.plan.matchers core.plan.resolve "
        "core.model.runnable core.formats.patch core.plan.created_containers core.plan.envmerge "
        "core.plan.handwritten core.plan.managedlayer core.plan.merge core.plan.spelling "
        "core.plan.standin core.plan.plan core.plan.portable core.usecases.standins "
        "core.reading.standins core.usecases.chainfiles core.formats.jsontext core.verify "
        "core.verify.duplicates core.verify.readers core.verify.crossreads "
        "core.verify.builtin_records core.cli.report "
    ),
    "uninstall": (
        "core.files core.files.quickimport core core.cli core.cli.entry core.cli.loadorder "
        "core.formats core.formats.lazypattern core.formats.textsafe core.cli.console core.errors "
        "core.cli.common core.cli.usage core.cli.group core.cli.app core.reading core.files.paths "
        "core.model core.formats.fieldtuple core.model.findings core.reading.projects "
        "core.cli.uninstalling core.files.filecheck core.files.readcontext core.files.filelock "
        "core.files.fileio core.usecases core.usecases.selection core.usecases.api "
        "core.formats.jsonlite core.formats.tomlplain core.model.names core.model.record "
        "core.reading.scopes core.usecases.transaction core.usecases.installer core.contract "
        "core.contract.entrypoints core.contract.abstractness core.model.jsonkinds "
        "core.model.render core.contract.host core.contract.registry core.contract.builtin hosts "
        "core.contract.reads core.contract.description core.contract.skipped core.contract.shapes "
        "core.contract.yamlfile core.contract.describe core.files.layerfiles core.plan "
        "core.formats.patch core.model.bundle core.model.runnable core.plan.created_containers "
        "core.plan.envmerge core.plan.handwritten core.plan.managedlayer core.plan.merge "
        "core.plan.matchers core.plan.resolve core.plan.spelling core.plan.standin core.plan.plan "
        "core.usecases.standins core.reading.standins core.usecases.chainfiles "
        "core.formats.jsontext core.formats.jsonspans core.formats.jsonlayout "
        "core.formats.jsonremove core.formats.jsonsplice core.formats.jsonedit "
        "core.formats.jsoncheck core.files.interrupt core.files.fileowners core.files.fileswap "
        "core.cli.report "
    ),
}
