from .utils import scale
