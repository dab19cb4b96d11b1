from django.apps import AppConfig

from config import pipeline


class PipelineConfig(AppConfig):
    """The last app to be ready: it wires the apps' callbacks into the hooks of the apps below them, in the order
    config/pipeline.py lists them, once every app is loaded (the one place anything registers with a hook)."""

    name = "config"
    label = "config"
    verbose_name = "Pipeline"

    def ready(self) -> None:
        pipeline.install()
